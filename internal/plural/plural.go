// Package plural writes a count with its noun in the right number: "1 shard",
// "2 shards", "1 vertex", "0 vertices".
package plural

import "fmt"

// irregular holds the nouns whose plural is not the singular plus "s".
var irregular = map[string]string{"vertex": "vertices"}

// Of returns n and noun, the noun in the plural unless n is one. noun is singular; a
// noun of several words ("edge traversed") is made plural in its first word.
func Of[T ~int | ~int64 | ~uint32 | ~uint64](n T, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	head, rest := noun, ""
	for i := range noun {
		if noun[i] == ' ' {
			head, rest = noun[:i], noun[i:]
			break
		}
	}
	if p, ok := irregular[head]; ok {
		return fmt.Sprintf("%d %s%s", n, p, rest)
	}
	return fmt.Sprintf("%d %ss%s", n, head, rest)
}
