package main

import (
	"errors"
	"flag"
	"strconv"
	"strings"

	"github.com/oocgraph/ooc/internal/bytesize"
)

// byteSize is a flag holding a byte count written as 512MiB, 8GiB, 6G or 1000000
// (--mem, --shard-size, --vram).
type byteSize int64

func (b *byteSize) String() string {
	if b == nil || *b == 0 {
		return ""
	}
	return bytesize.Format(int64(*b))
}

func (b *byteSize) Set(s string) error {
	n, err := bytesize.Parse(s)
	*b = byteSize(n)
	return err
}

// realNumber is a float flag (--tolerance, --delta) that refuses a number written nonzero
// which float64 rounds to 0 (1e-400): the flag package's float takes it as 0, which
// these flags read as "the default" or report as a 0 the user never wrote.
type realNumber float64

func (r *realNumber) String() string {
	if r == nil {
		return "0"
	}
	return strconv.FormatFloat(float64(*r), 'g', -1, 64)
}

func (r *realNumber) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("value out of range")
		}
		return errors.New("parse error")
	}
	if f == 0 && nonzeroMantissa(s) {
		return errors.New("nonzero but closer to 0 than a float64 holds (about 4.9e-324)")
	}
	*r = realNumber(f)
	return nil
}

// nonzeroMantissa says whether the number s (which ParseFloat took) has a nonzero digit
// before its exponent.
func nonzeroMantissa(s string) bool {
	s = strings.ToLower(strings.TrimLeft(s, "+-"))
	exp := "e"
	if strings.HasPrefix(s, "0x") {
		s, exp = s[2:], "p"
	}
	if i := strings.Index(s, exp); i >= 0 {
		s = s[:i]
	}
	return strings.ContainsFunc(s, func(c rune) bool { return c != '0' && c != '.' && c != '_' })
}

// decimalInt and decimalUint are integer flags read in base 10 alone, as --src and the
// sizes are: the flag package's integers take Go's prefixes, which would read --scale
// 010 as 8 (octal), --sources 0x10 as 16 and --top 0b11 as 3.
type (
	decimalInt  int
	decimalUint uint64
)

func (d *decimalInt) String() string {
	if d == nil {
		return "0"
	}
	return strconv.Itoa(int(*d))
}

func (d *decimalInt) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return decimalError(err, "a whole number")
	}
	*d = decimalInt(n)
	return nil
}

func (d *decimalUint) String() string {
	if d == nil {
		return "0"
	}
	return strconv.FormatUint(uint64(*d), 10)
}

func (d *decimalUint) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return decimalError(err, "a whole number of 0 or more")
	}
	*d = decimalUint(n)
	return nil
}

// decimalError words a failed parse of an integer flag as the flag package does,
// saying what is wanted.
func decimalError(err error, want string) error {
	if errors.Is(err, strconv.ErrRange) {
		return errors.New("value out of range")
	}
	return errors.New("want " + want + " in decimal digits")
}

// intFlag and uintFlag declare decimal integer flags with their defaults.
func intFlag(fs *flag.FlagSet, p *int, name string, def int, usage string) {
	*p = def
	fs.Var((*decimalInt)(p), name, usage)
}

func uintFlag(fs *flag.FlagSet, p *uint64, name string, def uint64, usage string) {
	*p = def
	fs.Var((*decimalUint)(p), name, usage)
}
