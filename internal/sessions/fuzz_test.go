package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/zero-agent/zero/internal/event"
)

func addSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/B27/*.jsonl")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		// The same damage in event-shaped lines.
		f.Add(bytes.ReplaceAll(data, []byte(`{"seq":`), []byte(`{"schemaVersion":1,"type":"message","seq":`)))
	}
	evs, _ := conversation()
	var log bytes.Buffer
	for _, ev := range evs {
		ev.SchemaVersion = 1
		b, _ := json.Marshal(ev)
		log.Write(append(b, '\n'))
	}
	f.Add(log.Bytes())
	f.Add(log.Bytes()[:log.Len()-30])
	f.Add([]byte("\x00\x00\n{\"a\":1}{\"b\":2}\r\n  \n{"))
}

// FuzzReadRecords checks the recovering line reader: every record is a
// valid JSON object, the streaming reader agrees with the byte reader,
// chunked decoding agrees with one chunk, and the resume filter only ever
// drops events.
func FuzzReadRecords(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, prefix := range [][]byte{seqPrefix, eventPrefix, nil} {
			recs, ws := ReadRecords(data, prefix)
			lines := bytes.Count(data, []byte{'\n'}) + 1
			for _, r := range recs {
				if !json.Valid(r.Raw) || r.Raw[0] != '{' || r.Line < 1 || r.Line > lines {
					t.Fatalf("bad record %+v", r)
				}
			}
			lr := NewLineReader(bytes.NewReader(data), prefix)
			var srecs []Record
			for {
				r, err := lr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				srecs = append(srecs, r)
			}
			if !sameRecords(recs, srecs) || !slices.Equal(ws, lr.Warnings()) {
				t.Fatalf("LineReader differs from ReadRecords")
			}
		}

		one, w1 := decodeChunks(data, nil, 1)
		three, w3 := decodeChunks(data, nil, 3)
		if !reflect.DeepEqual(one, three) || !slices.Equal(w1, w3) {
			t.Fatalf("chunked decode differs:\n%v %v\n%v %v", one, w1, three, w3)
		}
		msgs, _ := decodeChunks(data, func(t event.Type) bool { return t == event.Message }, 2)
		i := 0
		for _, ev := range one {
			if i < len(msgs) && reflect.DeepEqual(ev, msgs[i]) {
				i++
			}
		}
		if i != len(msgs) {
			t.Fatalf("filtered decode invented events: %v", msgs[i:])
		}
		RebuildHistory(one)
	})
}

// FuzzRepairTail checks that the pre-append repair leaves a log ending in
// '\n' (or empty) and never loses a readable record.
func FuzzRepairTail(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), EventsFile)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := RepairTail(path, time.Unix(0, 0)); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(path)
		if len(after) > 0 && after[len(after)-1] != '\n' {
			t.Fatalf("log still torn: %q", after)
		}
		before, _ := ReadRecords(data, eventPrefix)
		got, _ := ReadRecords(after, eventPrefix)
		if len(before) != len(got) {
			t.Fatalf("repair changed the records: %d -> %d", len(before), len(got))
		}
		for i := range got {
			if !bytes.Equal(before[i].Raw, got[i].Raw) {
				t.Fatalf("record %d changed: %q -> %q", i, before[i].Raw, got[i].Raw)
			}
		}
	})
}
