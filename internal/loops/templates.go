package loops

import (
	"sort"
	"strings"
)

// DefaultTemplate is the template zero loop new uses when none is named.
const DefaultTemplate = "perf-attack"

type template struct{ spec, config, state string }

// TemplateNames lists the templates, the default first.
func TemplateNames() string {
	names := []string{DefaultTemplate}
	for n := range templates {
		if n != DefaultTemplate {
			names = append(names, n)
		}
	}
	sort.Strings(names[1:])
	return strings.Join(names, ", ")
}

const stateStart = `# State

Scorecard: keep the numbers that matter here; the harness's gate results are in ticks.jsonl.

Each wake appends one row below (never edits one): a "## Wake N — DATE" heading, what it did
and measured, and a last line "NEXT ACTION: the one next step".
`

const rulesStart = `# Rules

Distilled, verified rules only: add one when a wake proved it, citing the wake.
`

const contractAndBudget = `
[contract]
require_state_append = true   # a wake that banks no state row pauses the loop, and says so
require_next_action = true    # the row must end with a "NEXT ACTION:" line
`

var templates = map[string]template{
	"perf-attack": {
		spec: `# Mission: make it measurably faster

Goal: bring the measured number of the "speed" gate under its bar without breaking the "tests" gate.

Each wake: read the state rows and the gate results, pick ONE change (profile first, then the
biggest cost), make it, measure it with the same command the gate runs, and bank a row.

Authority: edit the code of the workspace only; no new dependencies; never weaken a test or a gate.
`,
		config: `# loop.toml: what the harness enforces (docs/loops.md). Edit, then zero loop arm NAME.
[schedule]
heartbeat = "30m"                        # time between the end of a wake and the next one
# deadline = 2026-12-31T18:00:00Z        # absolute: no wake starts at or after it
` + contractAndBudget + `
[[gate]]                                 # run by the harness after every wake
name = "tests"
run = "echo 'replace with your test command' >&2; exit 1"
parse = "exit"
pass = "== 0"

[[gate]]
name = "speed"
run = "echo '{\"ns_per_op\": 1e9}'"      # replace: a command printing the measured number as JSON
parse = "json:.ns_per_op"
pass = "<= 1000"
timeout = "10m"

[budget]
max_wakes = 50
max_tokens = 2000000
on_exhaust = "pause"                     # never a silent stop

[stop]
when_gates_pass = true                   # goal met: every gate passes
`,
		state: stateStart,
	},
	"watcher": {
		spec: `# Mission: watch and report

Goal: notice when the watched thing changes (a CI status, a log, a queue) and say what changed.

Each wake: look at the gate results and what you can read, compare with the last row, and bank a row
saying what changed (or "no change") and what a person should look at.

Authority: read only. Change nothing in the workspace.
`,
		config: `# loop.toml: what the harness enforces (docs/loops.md). Edit, then zero loop arm NAME.
[schedule]
heartbeat = "1h"
` + contractAndBudget + `
[[gate]]
name = "status"
run = "echo 'replace with a command printing the watched status'"
parse = "stdout"
pass = "contains ok"

[budget]
max_wakes = 200
max_tokens = 2000000
on_exhaust = "pause"
`,
		state: stateStart,
	},
	"babysitter": {
		spec: `# Mission: keep a long job healthy

Goal: keep the job (a build, a deploy, a pull request) green until it is done.

Each wake: read the gate results; when "healthy" fails, find out why and fix the cause if it is
within your authority, else describe it; bank a row either way.

Authority: the workspace only; never push, deploy or delete.
`,
		config: `# loop.toml: what the harness enforces (docs/loops.md). Edit, then zero loop arm NAME.
[schedule]
heartbeat = "15m"
` + contractAndBudget + `
[[gate]]
name = "healthy"
run = "echo 'replace with a command that exits 0 while the job is healthy' >&2; exit 1"

[budget]
max_wakes = 100
max_tokens = 2000000
on_exhaust = "pause"
`,
		state: stateStart,
	},
}
