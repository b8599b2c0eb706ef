package parse

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// sniffLen is how much decompressed content detection looks at.
const sniffLen = 4096

// detect settles the format of p.br from opt.Format, the content and the
// name's extension, in that order of trust, and records it in p.res.
func (p *parser) detect() error {
	head, err := p.br.Peek(sniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return p.readError(err)
	}
	if err := utf16Error(p.path, p.opt.Name, p.res.Compression, p.opt.Format, head); err != nil {
		return err
	}
	f := p.opt.Format
	if f == "" {
		f, err = p.detectFormat(head)
		if err != nil {
			return err
		}
	} else if f == FormatParquet {
		return p.parquetPipeError()
	} else if _, err := ParseFormat(string(f)); err != nil {
		return &ParseError{Path: p.path, Offset: -1, Msg: fmt.Sprintf("unknown format %q (want %s)", f, formatNames)}
	} else if err := mtxAsSNAP(p.path, f, bytes.TrimPrefix(head, utf8BOM)); err != nil {
		return err
	} else if err := binaryWidth(p.path, f, formatFromExt(p.opt.Name)); err != nil {
		return err
	}
	p.res.Format = f
	if f.text() && bytes.HasPrefix(head, utf8BOM) {
		p.br.Discard(len(utf8BOM))
		head = head[len(utf8BOM):]
	}
	if f.text() {
		// A carriage return inside a line reads as a blank, and what follows it as
		// further columns: a file with classic Mac line endings (CR alone) would ingest
		// as its first edge. Lines end in LF or CRLF.
		if at := bareCR(head); at >= 0 {
			return &ParseError{Path: p.path, Line: int64(bytes.Count(head[:at], []byte{'\n'})) + 1, Offset: -1,
				Msg: "a carriage return not followed by a line feed: lines must end in LF or CRLF (for CR line endings, convert with tr '\\r' '\\n')"}
		}
	}
	if f == FormatMTX || f == FormatDIMACS {
		p.res.Header.IDBase = 1
	}
	return nil
}

// mtxAsSNAP refuses format snap, given by --format, for content that starts with a
// MatrixMarket header: snap reads % lines as comments, so it would take the size line
// for an edge and the 1-based ids for 0-based ones.
func mtxAsSNAP(path string, f Format, head []byte) error {
	if f == FormatSNAP && bytes.HasPrefix(head, []byte("%%MatrixMarket")) {
		return &ParseError{Path: path, Line: 1, Offset: -1, Msg: "a MatrixMarket header, where --format snap was given; drop --format or pass --format mtx"}
	}
	return nil
}

// binaryWidth refuses --format bin32 for a name ending .bin64, and the reverse: the
// user has said two things, and either read of the other's file gives a wrong graph
// (bin64 pairs read as bin32 have heads 0 or the ids' high halves; bin32 pairs read
// as bin64 join two ids into one).
func binaryWidth(path string, f, ext Format) error {
	if (f == FormatBin32 && ext == FormatBin64) || (f == FormatBin64 && ext == FormatBin32) {
		return &ParseError{Path: path, Offset: -1, Msg: fmt.Sprintf("--format %s for a name ending .%s: drop --format to read it as %s, "+
			"or rename the file (or give it on standard input) to read it as %s", f, ext, ext, f)}
	}
	return nil
}

// bareCR returns the offset of the first carriage return in head that a line feed does
// not follow, or -1 (a CR that ends head may be followed by one beyond it).
func bareCR(head []byte) int {
	for i := 0; i+1 < len(head); i++ {
		j := bytes.IndexByte(head[i:len(head)-1], '\r')
		if j < 0 {
			return -1
		}
		if i += j; head[i+1] != '\n' {
			return i
		}
	}
	return -1
}

// detectFormat guesses the format of content starting with head.
func (p *parser) detectFormat(head []byte) (Format, error) {
	ext := formatFromExt(p.opt.Name)
	text := bytes.TrimPrefix(head, utf8BOM) // the content a text format reads
	switch {
	case bytes.HasPrefix(text, []byte("%%MatrixMarket")):
		return FormatMTX, nil
	case bytes.HasPrefix(head, []byte("PAR1")):
		return "", p.parquetPipeError()
	case ext == FormatBin32 || ext == FormatBin64:
		if looksText(text) {
			return "", p.offsetError(0, "text content (no NUL byte, only printable characters and line breaks) under a .%s name; "+
				"pass --format snap to read it as text, or --format %s to read it as binary", ext, ext)
		}
		return ext, nil
	case gapbsName(p.opt.Name) && bytes.IndexByte(head, 0) >= 0:
		return "", gapbsError(p.path)
	case bytes.IndexByte(head[:min(len(head), 1024)], 0) >= 0:
		return "", p.offsetError(int64(bytes.IndexByte(head, 0)),
			"binary content (a NUL byte); pass --format bin32 or --format bin64 for binary edge lists")
	case ext != "":
		return ext, nil
	case looksDIMACS(text):
		return FormatDIMACS, nil
	}
	return FormatSNAP, nil
}

// utf8BOM is UTF-8's byte-order mark, which Windows editors and spreadsheets write
// before a text file's first line. A text format's input skips it there (it cannot
// begin a line of ids); a binary one's reads it as data.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// looksText reports whether head, the start of content named as binary, reads as
// text: a line break and nothing but printable ASCII, tabs and line breaks in its first
// KiB. Binary ids below 2^24 have a NUL byte; a binary file of larger ids is text-like
// in a KiB only by chance near (98/256)^1024, and --format bin32 reads it anyway.
func looksText(head []byte) bool {
	head = head[:min(len(head), 1024)]
	if bytes.IndexByte(head, '\n') < 0 {
		return false
	}
	for _, c := range head {
		if (c < ' ' || c > '~') && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// looksDIMACS reports whether the first non-blank line is a DIMACS c, p or a line.
func looksDIMACS(head []byte) bool {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		switch {
		case bytes.HasPrefix(line, []byte("p sp")), bytes.HasPrefix(line, []byte("a ")),
			bytes.HasPrefix(line, []byte("a\t")), bytes.HasPrefix(line, []byte("c ")),
			bytes.HasPrefix(line, []byte("c\t")), bytes.Equal(line, []byte("c")):
			return true
		}
		return false
	}
	return false
}

// formatFromExt maps a name like web.mtx.gz to its format, or "".
func formatFromExt(name string) Format {
	name = strings.ToLower(name)
	for _, c := range []string{".gz", ".gzip", ".zst", ".zstd"} {
		name = strings.TrimSuffix(name, c)
	}
	switch filepath.Ext(name) {
	case ".mtx":
		return FormatMTX
	case ".gr":
		return FormatDIMACS
	case ".bin32":
		return FormatBin32
	case ".bin64":
		return FormatBin64
	}
	return ""
}

// gapbsName reports whether name ends .sg or .wsg (compressed or not): binary content
// under it is GAPBS's serialized graph, a header and a CSR, which ooc export writes and
// ooc ingest does not read (a text edge list so named reads as text). Read as binary
// pairs it never ingests (its 17-byte header leaves the length odd).
func gapbsName(name string) bool {
	name = strings.ToLower(name)
	for _, c := range []string{".gz", ".gzip", ".zst", ".zstd"} {
		name = strings.TrimSuffix(name, c)
	}
	ext := filepath.Ext(name)
	return ext == ".sg" || ext == ".wsg"
}

// gapbsError refuses a GAPBS serialized graph, saying how to make an edge list of it.
func gapbsError(path string) error {
	return &ParseError{Path: path, Offset: -1, Msg: "a GAPBS serialized graph (.sg or .wsg), not an edge list; " +
		"GAPBS's converter writes one: converter -f FILE -e FILE.el (converter -f FILE -w -e FILE.wel for a .wsg's weights)"}
}

// text reports whether f is a line-based format.
func (f Format) text() bool { return f == FormatSNAP || f == FormatMTX || f == FormatDIMACS }

// parquetPipeError refuses a Parquet stream: its index is at its end, so ingest reads
// Parquet from a file (FileFrom), never from a stream.
func (p *parser) parquetPipeError() error {
	return &ParseError{Path: p.path, Offset: 0, Msg: "a Parquet file (magic PAR1) is read from its end: name the file, not standard input, a pipe or a compressed stream"}
}
