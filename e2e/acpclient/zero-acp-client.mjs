// zero-acp-client.mjs drives `zero acp` with the official ACP TypeScript
// SDK's client (https://github.com/agentclientprotocol/typescript-sdk),
// for e2e/acp_test.go:
//
//   node zero-acp-client.mjs ZERO_BINARY SCENARIO ARG [ZERO_ACP_ARGS...]
//
// zero runs in the current directory with this process's environment.
// Scenarios:
//   prompt TEXT   a new session, TEXT sent; permission requests answered
//                 in the order of $ZERO_ACP_ANSWERS (comma-separated
//                 option ids, then allow_once)
//   load ID       session/load of session ID in a fresh process
//   cancel TEXT   a new session switched to auto-accept (session/set_mode),
//                 TEXT sent, session/cancel once an execute tool call runs
//   auto TEXT     a new session switched to auto-accept, TEXT sent
//   switch TEXT   a new session in normal mode, TEXT sent; at the first
//                 permission request the client switches to auto-accept
//                 (the user clicks it while the request shows), then
//                 answers reject_once
//   auth METHOD   session/new before authenticating, authenticate with
//                 $ZERO_ACP_AUTH_MISSING (a method whose key is unset), each
//                 error recorded; then authenticate METHOD, a new session,
//                 "hi" sent; then logout and a session/new, its error
//                 recorded
//   hangup TEXT   as auto, but the client closes zero's stdin (as an editor
//                 that quits) once a process with $ZERO_ACP_HANGUP_ON on its
//                 command line runs (\0 in it is a NUL), without a cancel; the stop reason is
//                 "zero exited" when zero exits before answering the prompt
// With $ZERO_ACP_BUFFERS (a JSON object of absolute path → text) the client
// offers fs/read_text_file and fs/write_text_file over those editor buffers.
// With $ZERO_ACP_TERMINAL=1 it offers terminal/*: each terminal/create runs
// its command with child_process, as an editor's terminal would.
// It prints one JSON object: the initialize response, the session id, the
// stop reason, the auth scenario's errors, every session/update, the permission requests, the fs
// requests and buffers after them, the terminal requests, and zero's exit
// code after the client closed its stdin.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const [bin, scenario, arg, ...acpArgs] = process.argv.slice(2);
const answers = (process.env.ZERO_ACP_ANSWERS ?? '').split(',').filter(Boolean);
const child = spawn(bin, ['acp', ...acpArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const buffers = process.env.ZERO_ACP_BUFFERS ? JSON.parse(process.env.ZERO_ACP_BUFFERS) : null;
const fsRequests = [];
const updates = [];
const permissions = [];
const terminalRequests = [];
const terminal = process.env.ZERO_ACP_TERMINAL === '1';
const terminals = new Map();
let nextTerminal = 0;
let onUpdate = () => {};
// conn is the connection, for requests a handler sends (switch).
let conn = null;
let switched = false;
const authErrors = [];

// startTerminal runs a terminal/create request's command, keeping its
// output and, once it ends, its exit status.
function startTerminal(params) {
  const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const t = { proc, output: '', exit: null };
  const keep = (chunk) => { t.output += chunk.toString(); };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  t.exited = once(proc, 'close').then(([code, signal]) => {
    t.exit = { exitCode: code, signal };
    return t.exit;
  });
  const id = `term-${++nextTerminal}`;
  terminals.set(id, t);
  return id;
}

function terminalOf(id) {
  const t = terminals.get(id);
  if (!t) throw acp.RequestError.invalidParams({ terminalId: id });
  return t;
}

// processWith reports whether a process has marker on its command line.
function processWith(marker) {
  for (const pid of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return true;
    } catch {}
  }
  return false;
}

// killTerminal kills the command's process group.
function killTerminal(t) {
  if (t.exit === null) {
    try { process.kill(-t.proc.pid, 'SIGKILL'); } catch {}
  }
}
const app = acp
  .client({ name: 'zero-e2e-acp' })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    updates.push(params.update);
    onUpdate(params);
  })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    permissions.push(params);
    if (scenario === 'switch' && !switched) {
      switched = true;
      await conn.request(acp.methods.agent.session.setMode, { sessionId: params.sessionId, modeId: 'auto-accept' });
      return { outcome: { outcome: 'selected', optionId: 'reject_once' } };
    }
    const optionId = answers.shift() ?? 'allow_once';
    return { outcome: { outcome: 'selected', optionId } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
    fsRequests.push({ method: 'read', path: params.path });
    if (!(params.path in buffers)) throw acp.RequestError.resourceNotFound(params.path);
    return { content: buffers[params.path] };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
    fsRequests.push({ method: 'write', path: params.path });
    buffers[params.path] = params.content;
    return {};
  })
  .onRequest(acp.methods.client.terminal.create, ({ params }) => {
    terminalRequests.push({ method: 'create', command: params.command, args: params.args, cwd: params.cwd });
    return { terminalId: startTerminal(params) };
  })
  .onRequest(acp.methods.client.terminal.output, ({ params }) => {
    terminalRequests.push({ method: 'output', terminalId: params.terminalId });
    const t = terminalOf(params.terminalId);
    return { output: t.output, truncated: false, exitStatus: t.exit };
  })
  .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => {
    terminalRequests.push({ method: 'wait_for_exit', terminalId: params.terminalId });
    return await terminalOf(params.terminalId).exited;
  })
  .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
    terminalRequests.push({ method: 'kill', terminalId: params.terminalId });
    killTerminal(terminalOf(params.terminalId));
    return {};
  })
  .onRequest(acp.methods.client.terminal.release, ({ params }) => {
    terminalRequests.push({ method: 'release', terminalId: params.terminalId });
    killTerminal(terminalOf(params.terminalId));
    terminals.delete(params.terminalId);
    return {};
  });

// failed records a request's error as authErrors' step.
async function failed(step, request) {
  try {
    await request;
    authErrors.push({ step, ok: true });
  } catch (e) {
    authErrors.push({ step, code: e.code, message: e.message, data: e.data });
  }
}

const out = await app.connectWith(stream, async (ctx) => {
  conn = ctx;
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {
      ...(buffers ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
      ...(terminal ? { terminal: true } : {}),
    },
    clientInfo: { name: 'zero-e2e-acp', version: '1.0.0' },
  });
  const cwd = process.cwd();
  if (scenario === 'load') {
    await ctx.request(acp.methods.agent.session.load, { sessionId: arg, cwd, mcpServers: [] });
    return { init, sessionId: arg };
  }
  if (scenario === 'auth') {
    await failed('session/new', ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }));
    await failed('authenticate', ctx.request(acp.methods.agent.authenticate, { methodId: process.env.ZERO_ACP_AUTH_MISSING }));
    await ctx.request(acp.methods.agent.authenticate, { methodId: arg });
  }
  const { sessionId, modes } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  if (scenario === 'cancel' || scenario === 'auto' || scenario === 'hangup') {
    await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'auto-accept' });
  }
  if (scenario === 'cancel') {
    onUpdate = (n) => {
      if (n.update.sessionUpdate === 'tool_call' && n.update.kind === 'execute') {
        setTimeout(() => ctx.notify(acp.methods.agent.session.cancel, { sessionId }), 300);
      }
    };
  }
  if (scenario === 'hangup') {
    // "\\0" in the variable stands for the NUL between arguments.
    const marker = process.env.ZERO_ACP_HANGUP_ON.replaceAll('\\0', '\0');
    const poll = setInterval(() => {
      if (processWith(marker)) {
        clearInterval(poll);
        child.stdin.end();
      }
    }, 20);
    exited.then(() => clearInterval(poll));
  }
  const prompted = ctx.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: scenario === 'auth' ? 'hi' : arg }],
  });
  // In hangup the connection closes under the prompt (zero exiting),
  // which fails it.
  const gone = () => exited.then(() => ({ stopReason: 'zero exited' }));
  const resp = await Promise.race([scenario === 'hangup' ? prompted.catch(gone) : prompted, gone()]);
  if (scenario === 'auth' && init.agentCapabilities?.auth?.logout) {
    await ctx.request(acp.methods.agent.logout, {});
    await failed('session/new after logout', ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }));
  }
  return { init, sessionId, modes, stopReason: resp.stopReason };
});
child.stdin.end();
const code = await exited;
process.stdout.write(JSON.stringify({ ...out, authErrors, updates, permissions, fsRequests, buffers, terminalRequests, openTerminals: terminals.size, exitCode: code }) + '\n');
