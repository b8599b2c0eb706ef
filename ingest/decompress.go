package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// decompress sniffs the magic bytes of the raw input and returns the stream
// of decompressed bytes. A single gzip stream decodes serially, so it runs in
// the block reader's goroutine, overlapped with the parsing workers.
func (p *parser) decompress(br *bufio.Reader) (io.Reader, func(), error) {
	magic, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return nil, nil, p.readError(err)
	}
	switch {
	case bytes.HasPrefix(magic, gzipMagic):
		p.res.Compression = "gzip"
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, p.streamError(err)
		}
		return zr, func() { zr.Close() }, nil
	case bytes.HasPrefix(magic, zstdMagic):
		p.res.Compression = "zstd"
		// A 128 MiB window bound, the zstd tool's own default, keeps a
		// hostile frame header from asking for more memory than ingest's
		// budget; frames made with --long beyond that are refused.
		zr, err := zstd.NewReader(br, zstd.WithDecoderMaxWindow(128<<20), zstd.WithDecoderConcurrency(2))
		if err != nil {
			return nil, nil, p.streamError(err)
		}
		return zr, zr.Close, nil
	}
	return br, func() {}, nil
}

// readError classifies an error met while reading decompressed bytes: the
// machine's (an I/O error of the raw input) or the input's (a corrupt or
// truncated compressed stream).
func (p *parser) readError(err error) error {
	if p.in.err != nil {
		return fmt.Errorf("ingest: read %s: %w", p.path, p.in.err)
	}
	if p.res.Compression == "" {
		return fmt.Errorf("ingest: read %s: %w", p.path, err)
	}
	return p.streamError(err)
}

// streamError is a ParseError for a corrupt or truncated compressed stream,
// positioned at the compressed bytes consumed so far.
func (p *parser) streamError(err error) error {
	if p.in.err != nil {
		return fmt.Errorf("ingest: read %s: %w", p.path, p.in.err)
	}
	what := "corrupt"
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		what = "truncated"
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
	}
	return &ParseError{Path: p.path, Offset: p.in.n, Msg: what + " " + p.res.Compression + " stream", Err: err}
}
