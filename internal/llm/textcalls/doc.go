// Package textcalls recovers tool calls that a model wrote into its answer
// text instead of the server's structured tool_calls field, the common
// failure of small local models behind llama.cpp, Ollama, vLLM and LM
// Studio (cases B01, B02, B04, B05 in shared/cases).
//
// It owns three pure parsers over strings and nothing else:
//   - Recover: whole-message recovery of Hermes/Qwen <tool_call> blocks,
//     Qwen3-Coder <function=..><parameter=..> blocks, Mistral [TOOL_CALLS],
//     fenced or bare JSON call objects, with <think> reasoning split off;
//   - RepairJSON / RepairArguments: repair of sloppy argument JSON that
//     never changes meaning and refuses what it cannot repair;
//   - StreamFilter: a streaming guard that holds back text that may be the
//     start of call or reasoning markup, or an untagged call (a message
//     opening with JSON, a ```json block after a short lead-in), so a
//     terminal never flashes it; untagged text is released the moment its
//     bytes show it is not a call, so code and data blocks still stream.
//
// Hard lessons it encodes: prose that shows an example call is not a call
// (B01 negative, B05 negative), nor is a tag quoted inside a sentence: a
// tag counts only when it opens its line and the line does not go on with
// the sentence (QA report: a quoted [TOOL_CALLS] was executed); a tag that
// stands on its own but cannot run (unreadable body, unknown tool) is
// reported in Result.Invalid for the model to fix, never dropped as the
// answer; StreamFilter and Recover agree on all of this; a blind ' -> " replacement corrupts valid
// JSON that contains an apostrophe (B04 case 3); truncated or ambiguous
// arguments are refused, never run with {} or partial values (B04 cases 4
// and 5); only offered tools are ever recovered, but a model that writes
// the provider's wire name or a near miss ("functions.read_file",
// "Read-File") of exactly one offered tool means that tool, and it is run
// under its offered name.
//
// It must not do I/O, call providers or run tools; whether recovery runs at
// all is the caller's decision (per provider profile), and only when the
// request offered tools and the server returned no structured calls.
package textcalls
