// Command mcptestserver runs mcptest.NewServer on stdio, for tests that
// need a real process: -noise prints a banner and log lines (plain and
// JSON) on stdout among the JSON-RPC messages (case B29), -tools N adds N numbered tools,
// and its "crash" tool exits mid-call.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zero-agent/zero/internal/mcp/mcptest"
)

func main() {
	noise := flag.Bool("noise", false, "print non-protocol lines on stdout before and among messages")
	tools := flag.Int("tools", 0, "add this many numbered tools")
	flag.Parse()
	fmt.Fprintln(os.Stderr, "mcptestserver starting")
	var out io.WriteCloser = os.Stdout
	if *noise {
		fmt.Println("Demo MCP Server v1.0.0 started successfully")
		out = &noisyWriter{w: os.Stdout}
	}
	s := mcptest.NewServer(mcptest.Options{Tools: *tools, Exit: os.Exit})
	if err := s.Run(context.Background(), &mcp.IOTransport{Reader: os.Stdin, Writer: out}); err != nil {
		log.Print(err)
	}
}

// noisyWriter writes a log line, plain or JSON, before every message (the SDK writes one
// whole message per Write).
type noisyWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
	n  int
}

func (n *noisyWriter) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.n++
	if n.n%2 == 0 {
		fmt.Fprintf(n.w, "{\"level\":\"info\",\"msg\":\"message %d\"}\n", n.n) // a JSON log line (pino, structlog)
	} else {
		fmt.Fprintf(n.w, "[INFO] message %d\n", n.n)
	}
	return n.w.Write(p)
}

func (n *noisyWriter) Close() error { return n.w.Close() }
