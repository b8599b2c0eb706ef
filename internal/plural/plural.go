// Package plural writes a count with its noun in the right number: "1 shard",
// "2 shards", "1 vertex", "0 vertices".
package plural

import (
	"fmt"
	"strings"
)

// irregular holds the nouns whose plural is not the singular plus "s".
var irregular = map[string]string{"vertex": "vertices", "entry": "entries", "search": "searches"}

// Of returns n and noun, the noun in the plural unless n is one. noun is singular; in a
// noun of several words ("input edge") the last word takes the plural.
func Of[T ~int | ~int64 | ~uint32 | ~uint64](n T, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	head, last := "", noun
	if i := strings.LastIndexByte(noun, ' '); i >= 0 {
		head, last = noun[:i+1], noun[i+1:]
	}
	if p, ok := irregular[last]; ok {
		return fmt.Sprintf("%d %s%s", n, head, p)
	}
	return fmt.Sprintf("%d %s%ss", n, head, last)
}
