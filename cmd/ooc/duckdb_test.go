package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The Parquet interchange test runs DuckDB, a Parquet implementation independent of the
// Go library ooc uses, through its Node.js client (tests/interop; installed by
// scripts/install-duckdb.sh, which CI runs). Without it the test skips, except where
// OOC_REQUIRE_DUCKDB is set (CI), where its absence fails.

const interopDir = "../../tests/interop"

// duckDB runs SQL statements in DuckDB and returns the rows of the last one as sorted
// lines ("a b c", NULL as "-"), or skips the test when DuckDB is not installed.
func duckDB(t *testing.T, stmts ...string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(interopDir, "node_modules", "@duckdb", "node-api"))
	}
	if err != nil {
		msg := fmt.Sprintf("DuckDB is not installed (%v): run scripts/install-duckdb.sh (needs node and npm) for the Parquet interchange test", err)
		if os.Getenv("OOC_REQUIRE_DUCKDB") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cmd := exec.Command(node, filepath.Join(interopDir, "duckdb.mjs"))
	cmd.Args = append(cmd.Args, stmts...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v: %s\nstatements: %q", err, stderr.String(), stmts)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(out) == 0 {
		lines = nil
	}
	slices.Sort(lines)
	return lines
}

// sortedLines is s's lines, sorted.
func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return l
}

// sqlQuote quotes a path for SQL.
func sqlQuote(p string) string { return "'" + strings.ReplaceAll(p, "'", "''") + "'" }

// TestDuckDBInterchange: what ooc writes (edges, BFS and CC tables), DuckDB reads with
// the same rows; what DuckDB writes (several integer types, row group sizes, codecs,
// column names and orders, a weight column, dataset directories of part files), ooc
// ingests to the same graph as the text.
func TestDuckDBInterchange(t *testing.T) {
	duckDB(t, "SELECT 1") // skips here when DuckDB is absent
	dir := t.TempDir()
	text, err := filepath.Abs("../../testdata/facebook_combined.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	g := filepath.Join(dir, "fb.ooc")
	if code, _, stderr := runCLI(t, "", "ingest", "-q", "--order", "input", "-o", g, text); code != exitOK {
		t.Fatal(stderr)
	}
	run := func(t *testing.T, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitOK {
			t.Fatalf("%v: %s", args, stderr)
		}
		return stdout
	}

	t.Run("ooc writes, DuckDB reads", func(t *testing.T) {
		pq := filepath.Join(dir, "edges.parquet")
		run(t, "export", "-q", "-o", pq, g)
		want := sortedLines(run(t, "export", "-o", "-", g))
		if got := duckDB(t, "SELECT src, dst FROM read_parquet("+sqlQuote(pq)+")"); !slices.Equal(got, want) {
			t.Errorf("DuckDB read %d edges from ooc's Parquet, ooc's text has %d (or they differ: %s)", len(got), len(want), firstDiff(got, want))
		}
		types := duckDB(t, "SELECT column_name || ':' || column_type FROM (DESCRIBE SELECT * FROM read_parquet("+sqlQuote(pq)+"))")
		if !slices.Equal(types, []string{"dst:BIGINT", "src:BIGINT"}) {
			t.Errorf("DuckDB sees the columns %q, want src and dst BIGINT", types)
		}
		bfs := filepath.Join(dir, "bfs.parquet")
		run(t, "bfs", "--src", "0", "-o", bfs, g)
		// levels are unique, parents not (any neighbour one level up): the parents are
		// checked by a join below
		want = sortedLines(run(t, "bfs", "--src", "0", "--text", "-o", "-", g))
		for i, l := range want {
			f := strings.Fields(l)
			want[i] = f[0] + " " + f[2]
		}
		slices.Sort(want)
		if got := duckDB(t, "SELECT id, level FROM read_parquet("+sqlQuote(bfs)+")"); !slices.Equal(got, want) {
			t.Errorf("DuckDB read %d BFS rows, --text has %d (or they differ: %s)", len(got), len(want), firstDiff(got, want))
		}
		cc := filepath.Join(dir, "cc.parquet")
		run(t, "cc", "-o", cc, g)
		want = sortedLines(run(t, "cc", "--text", "-o", "-", g))
		if got := duckDB(t, "SELECT id, component FROM read_parquet("+sqlQuote(cc)+")"); !slices.Equal(got, want) {
			t.Errorf("DuckDB read %d CC rows, --text has %d (or they differ: %s)", len(got), len(want), firstDiff(got, want))
		}
		// the joins a DataFrame user does: parents that are not a neighbour one level up,
		// edges whose ends lie at levels more than one apart
		e, b := "read_parquet("+sqlQuote(pq)+")", "read_parquet("+sqlQuote(bfs)+")"
		if got := duckDB(t, "SELECT count(*) FROM "+b+" v WHERE v.level > 0 AND NOT EXISTS (SELECT 1 FROM "+e+" e JOIN "+b+
			" p ON p.id = v.parent WHERE p.level = v.level - 1 AND ((e.src = v.parent AND e.dst = v.id) OR (e.dst = v.parent AND e.src = v.id)))"); !slices.Equal(got, []string{"0"}) {
			t.Errorf("%v BFS parents are not a neighbour one level up", got)
		}
		if got := duckDB(t, "SELECT count(*) FROM read_parquet("+sqlQuote(pq)+") e JOIN read_parquet("+sqlQuote(bfs)+
			") a ON e.src = a.id JOIN read_parquet("+sqlQuote(bfs)+") b ON e.dst = b.id WHERE abs(a.level - b.level) > 1"); !slices.Equal(got, []string{"0"}) {
			t.Errorf("joined on id, %v edges join levels more than one apart", got)
		}
	})

	t.Run("DuckDB writes, ooc ingests", func(t *testing.T) {
		want := graphShards(t, g)
		gd := filepath.Join(dir, "fb-directed.ooc")
		run(t, "ingest", "-q", "--order", "input", "--directed", "-o", gd, text)
		wantDirected := graphShards(t, gd)
		csv := "read_csv(" + sqlQuote(text) + ", delim=' ', header=false, columns={'a': 'BIGINT', 'b': 'BIGINT'})"
		for _, c := range []struct {
			name, sel, opts string
			columns         string
			directed        bool // where the columns' roles matter
		}{
			{"bigint-snappy", "a AS src, b AS dst", "", "", false},
			{"int-zstd-weight", "b::INTEGER AS \"to\", random() AS weight, a::INTEGER AS \"from\"", ", COMPRESSION zstd, ROW_GROUP_SIZE 10000", "from,to", true},
			{"smallint-gzip", "a::SMALLINT AS src, b::USMALLINT AS dst", ", COMPRESSION gzip, ROW_GROUP_SIZE 2048", "", true},
			{"uint-uncompressed", "a::UINTEGER AS src, b::UBIGINT AS dst, 1.5 AS w", ", COMPRESSION uncompressed", "", false},
		} {
			pq := filepath.Join(dir, c.name+".parquet")
			duckDB(t, "COPY (SELECT "+c.sel+" FROM "+csv+") TO "+sqlQuote(pq)+" (FORMAT parquet"+c.opts+")", "SELECT 1")
			back := filepath.Join(dir, c.name+".ooc")
			args := []string{"ingest", "-q", "--order", "input", "-o", back}
			if c.columns != "" {
				args = append(args, "--columns", c.columns)
			}
			w := want
			if c.directed {
				args, w = append(args, "--directed"), wantDirected
			}
			run(t, append(args, pq)...)
			sameShards(t, c.name, graphShards(t, back), w)
		}
		// dataset directories: DuckDB's hive partitions (k=0/data_0.parquet, ...) and its
		// part files of two row groups each (data_0.parquet ... data_21.parquet), beside
		// the _SUCCESS and .crc files Spark writes
		for _, c := range []struct{ name, sel, opts string }{
			{"partitioned", "a AS src, b AS dst, a % 3 AS k", ", PARTITION_BY (k)"},
			{"parts", "a AS src, b AS dst", ", ROW_GROUP_SIZE 2048, ROW_GROUPS_PER_FILE 2"},
		} {
			ds := filepath.Join(dir, c.name)
			duckDB(t, "COPY (SELECT "+c.sel+" FROM "+csv+") TO "+sqlQuote(ds)+" (FORMAT parquet"+c.opts+")", "SELECT 1")
			parts, _ := filepath.Glob(filepath.Join(ds, "*", "*.parquet"))
			if more, _ := filepath.Glob(filepath.Join(ds, "*.parquet")); len(parts)+len(more) < 3 {
				t.Fatalf("%s: DuckDB wrote %d part files, want several", c.name, len(parts)+len(more))
			}
			for _, f := range []string{"_SUCCESS", ".data_0.parquet.crc"} {
				if err := os.WriteFile(filepath.Join(ds, f), []byte("not parquet"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			back := filepath.Join(dir, c.name+".ooc")
			run(t, "ingest", "-q", "--order", "input", "-o", back, ds)
			sameShards(t, c.name, graphShards(t, back), want)
		}
		// a null id is refused, naming the row group, the column and the row
		pq := filepath.Join(dir, "null.parquet")
		duckDB(t, "COPY (SELECT * FROM (VALUES (0, 1), (1, NULL)) t(src, dst)) TO "+sqlQuote(pq)+" (FORMAT parquet)", "SELECT 1")
		code, _, stderr := runCLI(t, "", "ingest", "-q", "-o", filepath.Join(dir, "null.ooc"), pq)
		if code != exitUsage || !strings.Contains(stderr, `row group 0 of 1, column "dst", row 1: holds a null`) {
			t.Errorf("a null id: code %d, %q", code, stderr)
		}
	})
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("line %d: %q, want %q", i, got[i], want[i])
		}
	}
	return "one is a prefix of the other"
}
