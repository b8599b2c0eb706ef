package parse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"syscall"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// gzipHeader reports whether head starts a gzip member: its magic and, where head holds
// them, the one compression method gzip defines (8, deflate) and no reserved flag bit
// (RFC 1952); an input shorter than that is a truncated gzip stream. The magic alone
// would take a binary edge list whose first id is 35615 (1f 8b as its low bytes) for
// gzip: the method and flags leave one such list in 2^27. A file named *.gz with the
// magic is gzip whatever follows it (decompress), so a damaged header there is a
// corrupt gzip stream, not text.
func gzipHeader(head []byte) bool {
	return bytes.HasPrefix(head, gzipMagic) && (len(head) < 4 || head[2] == 8 && head[3]&0xe0 == 0)
}

// otherCompressions are compressed and archive formats ooc does not decompress, by
// their magic bytes, with the command that gives their content on standard output:
// read as edge lists they are binary content, and as bin32 or bin64 pairs nonsense.
var otherCompressions = []struct {
	name, magic, command string
}{
	{"xz-compressed input", "\xfd7zXZ\x00", "xz -dc FILE"},
	{"bzip2-compressed input", "BZh", "bzip2 -dc FILE"},
	{"lz4-compressed input", "\x04\x22\x4d\x18", "lz4 -dc FILE"},
	{"a zip archive", "PK\x03\x04", "unzip -p FILE"},
	{"a 7-Zip archive", "7z\xbc\xaf\x27\x1c", "7z x -so FILE"},
	{"Unix compress (.Z) input", "\x1f\x9d", "uncompress -c FILE"},
	{"lzip-compressed input", "LZIP\x01", "lzip -dc FILE"},
}

// otherCompression refuses input whose first bytes are the magic of a format in
// otherCompressions, saying what it is and how to ingest its content (name, the input
// as the caller named it, in the command; "" or "-" leaves FILE); nil otherwise.
// bzip2's "BZh" counts only with its block size digit and a block's or the end's magic
// after it, so that text cannot match it; compress's two bytes only with a flags byte
// it writes (9 to 16 bits, bits 5 and 6 clear) and lz4's four with its frame version
// (01), so that a binary edge list whose first id has those bytes (40223 as its low 16
// bits for compress) is read as one.
func otherCompression(path, name string, head []byte) error {
	for _, c := range otherCompressions {
		if !bytes.HasPrefix(head, []byte(c.magic)) {
			continue
		}
		if c.magic == "BZh" && (len(head) < 10 || head[3] < '1' || head[3] > '9' ||
			!bytes.Equal(head[4:10], []byte("\x31\x41\x59\x26\x53\x59")) && !bytes.Equal(head[4:10], []byte("\x17\x72\x45\x38\x50\x90"))) {
			continue
		}
		if c.magic == "\x1f\x9d" && (len(head) < 3 || head[2]&0x60 != 0 || head[2]&0x1f < 9 || head[2]&0x1f > 16) {
			continue
		}
		if c.magic == "\x04\x22\x4d\x18" && (len(head) < 5 || head[4]&0xc0 != 0x40) {
			continue
		}
		command := c.command
		if name != "" && name != "-" {
			command = strings.ReplaceAll(command, "FILE", name)
		}
		return &ParseError{Path: path, Offset: 0, Msg: fmt.Sprintf("%s: ooc ingest decompresses gzip and zstd alone; "+
			"give it the content on standard input: %s | ooc ingest -o NAME.ooc -", c.name, command)}
	}
	return nil
}

// utf16Error refuses UTF-16 text (what Windows PowerShell's > writes), saying how to
// convert it; nil otherwise. It has a byte-order mark, or its first 16 code units (or
// all, in a shorter input, a line break among them) are printable ASCII or line breaks
// with a zero high byte: read as an edge list it is binary content, and as bin32 or
// bin64 pairs nonsense. name is as for
// otherCompression; compression, the input's ("gzip", "zstd" or ""), goes first in the
// command; an input the caller says is binary (format) is not checked.
func utf16Error(path, name, compression string, format Format, head []byte) error {
	if format == FormatBin32 || format == FormatBin64 {
		return nil
	}
	enc := ""
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		enc = "UTF-16"
	case asciiUnits(head, 0):
		enc = "UTF-16LE"
	case asciiUnits(head, 1):
		enc = "UTF-16BE"
	default:
		return nil
	}
	file := "FILE"
	if name != "" && name != "-" {
		file = name
	}
	command := fmt.Sprintf("iconv -f %s -t UTF-8 %s", enc, file)
	if compression != "" {
		command = fmt.Sprintf("%s -dc %s | iconv -f %s -t UTF-8", compression, file, enc)
	}
	return &ParseError{Path: path, Offset: 0, Msg: fmt.Sprintf("UTF-16 text (as PowerShell's > writes it): ooc ingest reads ASCII or UTF-8; "+
		"convert it on the way in: %s | ooc ingest -o NAME.ooc -", command)}
}

// asciiUnits reports whether head's 16-bit units, low byte at offset lo (0 little-endian,
// 1 big-endian), are printable ASCII, tabs or line breaks with a zero high byte: its
// first 16, or all of a shorter head with a line feed among them.
func asciiUnits(head []byte, lo int) bool {
	units := min(len(head)/2, 16)
	if units == 0 {
		return false
	}
	lf := false
	for i := range units {
		c, hi := head[2*i+lo], head[2*i+1-lo]
		if hi != 0 || (c < ' ' || c > '~') && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
		lf = lf || c == '\n'
	}
	return units == 16 || lf
}

// decompress sniffs the magic bytes of the raw input and returns the stream
// of decompressed bytes. A single gzip stream decodes serially, so it runs in
// the block reader's goroutine, overlapped with the parsing workers.
func (p *parser) decompress(br *bufio.Reader) (io.Reader, func(), error) {
	magic, err := br.Peek(10)
	if err != nil && err != io.EOF {
		return nil, nil, p.readError(err)
	}
	if err := otherCompression(p.path, p.opt.Name, magic); err != nil {
		return nil, nil, err
	}
	switch {
	case gzipHeader(magic) || bytes.HasPrefix(magic, gzipMagic) && strings.HasSuffix(p.path, ".gz"):
		p.res.Compression = "gzip"
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, p.streamError(err)
		}
		zr.Multistream(false)
		return &gzipMembers{zr: zr, br: br, p: p}, func() { zr.Close() }, nil
	case bytes.HasPrefix(magic, zstdMagic):
		p.res.Compression = "zstd"
		// The window bound keeps a hostile frame header from asking for more
		// memory than ingest's budget; the pipeline counts the first frame's
		// window (ZstdWindow) and passes what its budget allows.
		zr, err := zstd.NewReader(br, zstd.WithDecoderMaxWindow(uint64(p.maxWindow())), zstd.WithDecoderConcurrency(2))
		if err != nil {
			return nil, nil, p.streamError(err)
		}
		return zr, zr.Close, nil
	}
	return br, func() {}, nil
}

// DefaultMaxWindow is the zstd window accepted when ParseOptions.MaxWindow is zero:
// 128 MiB, the window the zstd tool's own decoder accepts without --long.
const DefaultMaxWindow = 128 << 20

// ErrWindow is matched by the error for a zstd frame whose window exceeds MaxWindow.
var ErrWindow = errors.New("zstd window larger than the memory budget allows")

func (p *parser) maxWindow() int64 {
	if p.opt.MaxWindow > 0 {
		return p.opt.MaxWindow
	}
	return DefaultMaxWindow
}

// ZstdWindow returns the memory the decoder of a zstd stream starting with head needs
// for its first frame's window (zero when head does not start a zstd frame); head
// should hold the first 18 bytes, a frame header's largest size.
func ZstdWindow(head []byte) int64 {
	if !bytes.HasPrefix(head, zstdMagic) {
		return 0
	}
	var h zstd.Header
	if h.Decode(head) != nil {
		return 0 // the decoder will say what is wrong
	}
	if h.SingleSegment {
		return int64(min(h.FrameContentSize, 1<<62))
	}
	return int64(min(h.WindowSize, 1<<62))
}

// gzipMembers reads concatenated gzip members (what gzip -c a b > ab writes) one by one,
// so that bytes after the last member that do not start another are reported as such:
// the multistream reader took them for a member and said "truncated gzip stream" or
// "invalid header" at an offset past them.
type gzipMembers struct {
	zr *gzip.Reader
	br *bufio.Reader
	p  *parser
}

func (g *gzipMembers) Read(b []byte) (int, error) {
	for {
		n, err := g.zr.Read(b)
		if err != io.EOF {
			return n, err
		}
		next, _ := g.br.Peek(len(gzipMagic))
		switch {
		case len(next) == 0:
			return n, io.EOF
		case !bytes.Equal(next, gzipMagic):
			at := g.p.in.n - int64(g.br.Buffered())
			return n, &ParseError{Path: g.p.path, Offset: at, Msg: "bytes after the end of the gzip stream that start no other gzip member"}
		}
		if err := g.zr.Reset(g.br); err != nil {
			return n, err
		}
		g.zr.Multistream(false)
		if n > 0 {
			return n, nil
		}
	}
}

// readError classifies an error met while reading decompressed bytes: the
// machine's (an I/O error of the raw input) or the input's (a corrupt or
// truncated compressed stream).
func (p *parser) readError(err error) error {
	if p.in.err != nil {
		return readFailure(p.path, p.in.err)
	}
	if p.res.Compression == "" {
		return readFailure(p.path, err)
	}
	return p.streamError(err)
}

// readFailure is the error of a read of the input at path that failed (the machine's,
// not the input's): path is named once, a path error of the same file giving its cause.
// A directory given as the input's stream (ooc ingest - < dir) is bad input instead.
func readFailure(path string, err error) error {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) && (pe.Path == path || path == displayName("-") && pe.Path == "/dev/stdin") {
		err = pe.Err
	}
	if errors.Is(err, syscall.EISDIR) {
		return &ParseError{Path: path, Offset: -1, Msg: "is a directory, not an edge list"}
	}
	return fmt.Errorf("ingest: read %s: %w", path, err)
}

// streamError is a ParseError for a corrupt or truncated compressed stream,
// positioned at the compressed bytes consumed so far.
func (p *parser) streamError(err error) error {
	if p.in.err != nil {
		return readFailure(p.path, p.in.err)
	}
	if pe := (*ParseError)(nil); errors.As(err, &pe) {
		return pe // positioned already (gzipMembers)
	}
	if errors.Is(err, zstd.ErrWindowSizeExceeded) {
		return fmt.Errorf("ingest: %s: a zstd frame at offset %d needs a window larger than %d MiB (zstd --long): %w (raise --mem)",
			p.path, p.in.n, p.maxWindow()>>20, ErrWindow)
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
