package sse

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll drains r, returning the events, the comments seen and the final
// error.
func readAll(src io.Reader) ([]Event, []string, error) {
	r := NewReader(src)
	var comments []string
	r.OnComment = func(c string) { comments = append(comments, c) }
	var evs []Event
	for {
		ev, err := r.Next()
		if err != nil {
			return evs, comments, err
		}
		evs = append(evs, ev)
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []Event
		comments []string
	}{
		{"data with space", "data: a\n\n", []Event{{Data: "a"}}, nil},
		{"data without space", "data:a\n\n", []Event{{Data: "a"}}, nil},
		{"only one space stripped", "data:  a\n\n", []Event{{Data: " a"}}, nil},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []Event{{Data: "a"}, {Data: "b"}}, nil},
		{"lone cr", "data: a\r\rdata: b\r\r", []Event{{Data: "a"}, {Data: "b"}}, nil},
		{"multi-line data", "data: a\ndata:b\ndata\n\n", []Event{{Data: "a\nb\n"}}, nil},
		{"event and id", "event: error\nid: 7\ndata: x\n\ndata: y\n\n",
			[]Event{{Event: "error", ID: "7", Data: "x"}, {ID: "7", Data: "y"}}, nil},
		{"event type resets without data", "event: ping\n\ndata: y\n\n", []Event{{Data: "y"}}, nil},
		{"comments reported", ": hello\n\n:\ndata: z\n\n", []Event{{Data: "z"}}, []string{" hello", ""}},
		{"eof flushes", "data: last", []Event{{Data: "last"}}, nil},
		{"eof flushes after newline", "event: e\ndata: last\n", []Event{{Event: "e", Data: "last"}}, nil},
		{"bom stripped", "\xef\xbb\xbfdata: a\n\n", []Event{{Data: "a"}}, nil},
		{"unknown field and retry ignored", "retry: 100\nfoo: bar\ndata: a\n\n", []Event{{Data: "a"}}, nil},
		{"id with NUL ignored", "id: a\x00b\ndata: a\n\n", []Event{{Data: "a"}}, nil},
		{"blank lines only", "\n\n\r\n", nil, nil},
		{"empty", "", nil, nil},
		{"colon in value kept", "data: {\"a\":\"b:c\"}\n\n", []Event{{Data: `{"a":"b:c"}`}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []string{"whole", "onebyte"} {
				var src io.Reader = strings.NewReader(tc.in)
				if mode == "onebyte" {
					src = iotest.OneByteReader(src)
				}
				evs, comments, err := readAll(src)
				if err != io.EOF {
					t.Fatalf("%s: err = %v, want io.EOF", mode, err)
				}
				if !reflect.DeepEqual(evs, tc.want) {
					t.Errorf("%s: events = %#v, want %#v", mode, evs, tc.want)
				}
				if !reflect.DeepEqual(comments, tc.comments) {
					t.Errorf("%s: comments = %q, want %q", mode, comments, tc.comments)
				}
			}
		})
	}
}

// TestReaderDroppedConnection: a read error other than EOF is returned and
// the unfinished event is discarded, not dispatched half-read.
func TestReaderDroppedConnection(t *testing.T) {
	src := io.MultiReader(strings.NewReader("data: whole\n\ndata: {\"par"), iotest.ErrReader(io.ErrUnexpectedEOF))
	evs, _, err := readAll(src)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want io.ErrUnexpectedEOF", err)
	}
	if want := []Event{{Data: "whole"}}; !reflect.DeepEqual(evs, want) {
		t.Errorf("events = %#v, want %#v", evs, want)
	}
}

func TestReaderLongLine(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	evs, _, err := readAll(strings.NewReader("data: " + big + "\n\n"))
	if err != io.EOF || len(evs) != 1 || evs[0].Data != big {
		t.Fatalf("got %d events, err %v", len(evs), err)
	}
}

// TestReaderFramingVariantsYieldTheSameDataAndComments reads three
// streams: the CRLF variant must yield the same events as the LF one,
// comments are reported, and every data line is delivered with "data:"
// and "data: " treated alike.
// Case B07 (testdata/B07; openai/openai-python#498, mnfst/llm-gateway#2053).
func TestReaderFramingVariantsYieldTheSameDataAndComments(t *testing.T) {
	wantStream := []string{
		`{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}`,
		`{"id":"c1","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}`,
		`{"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		`{"id":"c1","choices":[],"usage":{"prompt_tokens":812,"completion_tokens":3,"total_tokens":815}}`,
		`[DONE]`,
	}
	wantComments := []string{" OPENROUTER PROCESSING", " ping - 2026-01-01 00:00:00"}
	tests := []struct {
		file     string
		data     []string
		comments []string
	}{
		{"stream.sse", wantStream, wantComments},
		{"stream_crlf.sse", wantStream, wantComments},
		{"stream_leading_empty_choices.sse", []string{
			`{"id":"c2","choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}`,
			`{"id":"c2","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":null}]}`,
			`{"id":"c2","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
			`[DONE]`,
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "B07", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range []io.Reader{bytes.NewReader(raw), iotest.OneByteReader(bytes.NewReader(raw)), iotest.HalfReader(bytes.NewReader(raw))} {
				evs, comments, err := readAll(src)
				if err != io.EOF {
					t.Fatalf("err = %v", err)
				}
				var data []string
				for _, ev := range evs {
					if ev.Event != "" {
						t.Errorf("unexpected event type %q", ev.Event)
					}
					data = append(data, ev.Data)
				}
				if !reflect.DeepEqual(data, tc.data) {
					t.Errorf("data = %q\nwant %q", data, tc.data)
				}
				if !reflect.DeepEqual(comments, tc.comments) {
					t.Errorf("comments = %q, want %q", comments, tc.comments)
				}
			}
		})
	}
}

// FuzzReader checks that the framing does not depend on how the bytes are
// split into reads, that \r\n, \r and \n endings are equivalent, and that
// the reader never panics.
func FuzzReader(f *testing.F) {
	for _, name := range []string{"stream.sse", "stream_crlf.sse", "stream_leading_empty_choices.sse"} {
		raw, err := os.ReadFile(filepath.Join("testdata", "B07", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte("event: error\ndata: a\ndata: b\n\n: c\r\n\r\ndata: x"))
	f.Fuzz(func(t *testing.T, in []byte) {
		whole, _, err1 := readAll(bytes.NewReader(in))
		split, _, err2 := readAll(iotest.OneByteReader(bytes.NewReader(in)))
		if err1 != io.EOF || err2 != io.EOF {
			t.Fatalf("errors %v, %v", err1, err2)
		}
		if !reflect.DeepEqual(whole, split) {
			t.Fatalf("whole %#v != one-byte %#v", whole, split)
		}
		// Line endings are interchangeable when the input has only \n.
		if !bytes.ContainsRune(in, '\r') {
			crlf, _, _ := readAll(bytes.NewReader(bytes.ReplaceAll(in, []byte("\n"), []byte("\r\n"))))
			cr, _, _ := readAll(bytes.NewReader(bytes.ReplaceAll(in, []byte("\n"), []byte("\r"))))
			if !reflect.DeepEqual(whole, crlf) || !reflect.DeepEqual(whole, cr) {
				t.Fatalf("line endings change events:\nlf   %#v\ncrlf %#v\ncr   %#v", whole, crlf, cr)
			}
		}
	})
}
