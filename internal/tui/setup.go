package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/zero-agent/zero/internal/config"
	"github.com/zero-agent/zero/internal/providers/discovery"
	"github.com/zero-agent/zero/internal/tui/cells"
	"github.com/zero-agent/zero/internal/tui/sanitize"
)

// The first start's setup: with nothing configured and no server on the
// usual ports, the app lists the model servers a scan of 127.0.0.1 found
// (discovery.ScanLoopback) and the hosted providers, the user picks one by
// number (a hosted one then takes a pasted key, masked), and the choice is
// saved as the active profile of the user config, as /connect saves one.

// hostedProviders are the vendor APIs the setup offers (config's
// built-in profiles of the same names).
var hostedProviders = []string{"openai", "anthropic", "gemini"}

// setupPorts are the ports the setup and /scan probe: ZERO_SCAN_PORTS
// ("8001,9000") when set, else the scan's usual ones (nil).
func setupPorts() []int {
	if scanPorts != nil {
		return scanPorts
	}
	var out []int
	for _, f := range strings.Split(os.Getenv("ZERO_SCAN_PORTS"), ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 && n < 65536 {
			out = append(out, n)
		}
	}
	return out
}

// Setup runs the first start's setup on the terminal and saves the pick
// as the active profile. It returns what it saved ("" when the user quit
// with Esc or Ctrl-C: nothing is written).
func Setup(ctx context.Context) (string, error) { return setup(ctx, os.Stdout) }

// setup runs the setup on out with extra program options (a test's
// terminal).
func setup(ctx context.Context, out io.Writer, opts ...tea.ProgramOption) (string, error) {
	m := newSetup(ctx)
	if err := runErasing(ctx, m, &m.erase, out, opts...); err != nil {
		return "", err
	}
	if !m.done {
		return "", nil
	}
	return m.save()
}

// newSetup scans 127.0.0.1 for the setup's list.
func newSetup(ctx context.Context) *setupModel {
	sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	servers := discovery.ScanLoopback(sctx, setupPorts())
	cancel()
	return &setupModel{choices: discovery.Choices(servers), ports: ports(setupPorts())}
}

// setupModel is the setup's screen: a numbered list, then (for a hosted
// provider) the key.
type setupModel struct {
	choices []discovery.Choice
	ports   string
	typed   string // the number typed so far
	hosted  string // the hosted provider picked; "" while picking
	key     []rune
	problem string
	done    bool
	// width and height are the terminal's (0 until Bubble Tea says); top
	// is the first server row shown when they do not all fit.
	width, height, top int
	// erase: the setup's rows go when it quits, so the app (or the
	// message Esc leaves) starts on a clean terminal.
	erase erasing
}

func (m *setupModel) Init() tea.Cmd { return nil }

func (m *setupModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.PasteMsg:
		if m.hosted != "" {
			m.key = append(m.key, []rune(strings.TrimSpace(msg.Content))...)
		}
	case tea.KeyPressMsg:
		switch msg.String() {
		case "esc", "ctrl+c":
			m.erase.closed = true
			return m, tea.Quit
		case "enter":
			if m.enter() {
				m.erase.closed = true
				return m, tea.Quit
			}
		case "up", "down", "pgup", "pgdown":
			m.scroll(msg.String())
		case "backspace":
			if m.hosted != "" && len(m.key) > 0 {
				m.key = m.key[:len(m.key)-1]
			} else if m.hosted == "" && m.typed != "" {
				m.typed = m.typed[:len(m.typed)-1]
			}
		default:
			switch {
			case m.hosted != "" && msg.Text != "":
				m.key = append(m.key, []rune(msg.Text)...)
			case m.hosted == "" && len(msg.Text) == 1 && msg.Text[0] >= '0' && msg.Text[0] <= '9':
				m.typed += msg.Text
			}
		}
	}
	return m, nil
}

// enter takes the number typed, or the key; true: the setup is done.
func (m *setupModel) enter() bool {
	m.problem = ""
	if m.hosted != "" {
		if strings.TrimSpace(string(m.key)) == "" {
			m.problem = "paste the key, or Esc to quit"
			return false
		}
		m.done = true
		return true
	}
	n, err := strconv.Atoi(m.typed)
	m.typed = ""
	switch {
	case err != nil || n < 1 || n > len(m.choices)+len(hostedProviders):
		m.problem = fmt.Sprintf("type a number from 1 to %d", len(m.choices)+len(hostedProviders))
	case n <= len(m.choices):
		m.typed = strconv.Itoa(n)
		m.done = true
	default:
		m.hosted = hostedProviders[n-len(m.choices)-1]
	}
	return m.done
}

func (m *setupModel) View() tea.View {
	var lines []string
	lines = append(lines, "zero: nothing is configured yet (no provider, key or profile). Pick what to use:")
	if len(m.choices) == 0 {
		lines = append(lines, fmt.Sprintf("  no model server on 127.0.0.1 (ports %s)", m.ports))
	} else {
		lines = append(lines, "  model servers on 127.0.0.1:")
	}
	first, shown := m.window()
	for i, c := range m.choices[first : first+shown] {
		lines = append(lines, fmt.Sprintf("  %2d. %s  (%s %s)", first+i+1, sanitize.Line(c.Model), c.Server.Kind, c.Server.BaseURL))
	}
	if shown < len(m.choices) {
		lines = append(lines, fmt.Sprintf("      … %d-%d of %d shown: ↑/↓ for the others", first+1, first+shown, len(m.choices)))
	}
	lines = append(lines, "  hosted, with your API key:")
	for i, h := range hostedProviders {
		lines = append(lines, fmt.Sprintf("  %2d. %s", len(m.choices)+i+1, h))
	}
	if m.problem != "" {
		lines = append(lines, "  ! "+m.problem)
	}
	if m.hosted == "" {
		lines = append(lines, "number, then Enter (Esc quits): "+m.typed)
	} else {
		lines = append(lines, "paste your "+m.hosted+" API key, then Enter (Esc quits): "+strings.Repeat("•", len(m.key)))
	}
	if m.width > 0 { // one row each: a wrapped row would scroll the frame, leaving rows behind
		for i, l := range lines {
			lines[i] = cells.Truncate(l, m.width-1, "…")
		}
	}
	return m.erase.view(strings.Join(lines, "\n"))
}

// setupFixedRows are the setup's rows besides the server list: the
// header, two list headings, the hosted providers, a problem, the
// prompt and the "… shown" line.
var setupFixedRows = 6 + len(hostedProviders)

// window is the part of the server list that fits the terminal: the
// first row shown and how many (all while the height is unknown).
func (m *setupModel) window() (first, shown int) {
	fit := m.height - setupFixedRows
	if m.height == 0 || len(m.choices) <= fit+1 {
		return 0, len(m.choices)
	}
	fit = max(fit, 1)
	first = min(max(m.top, 0), len(m.choices)-fit)
	return first, fit
}

// scroll moves the server list's window by a row (↑/↓) or a page.
func (m *setupModel) scroll(key string) {
	first, shown := m.window()
	step := map[string]int{"up": -1, "down": 1, "pgup": -shown, "pgdown": shown}[key]
	m.top = min(max(first+step, 0), len(m.choices)-shown)
}

// save writes the pick as the active profile of the user config and says
// what it saved.
func (m *setupModel) save() (string, error) {
	path, err := config.UserPath()
	if err != nil {
		return "", err
	}
	if m.hosted == "" {
		n, _ := strconv.Atoi(m.typed)
		c := m.choices[n-1]
		name := profileName(c.Server)
		if err := config.SaveUser(func(f *config.File) { saveProfile(f, name, c) }); err != nil {
			return "", err
		}
		return fmt.Sprintf("saved %s on %s as profile %q (%s)", c.Model, c.Server.BaseURL, name, path), nil
	}
	name, key := m.hosted, strings.TrimSpace(string(m.key))
	err = config.SaveUser(func(f *config.File) {
		f.ActiveProvider = name
		for i := range f.Providers {
			if f.Providers[i].Name == name {
				f.Providers[i].APIKey = key
				return
			}
		}
		f.Providers = append(f.Providers, config.Provider{Name: name, APIKey: key})
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("saved your %s key (%s) as profile %q in %s", name, config.MaskKey(key), name, path), nil
}
