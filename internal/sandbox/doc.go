// Package sandbox isolates the shell commands a tool runs at the OS
// level: bubblewrap on Linux when it is installed and namespaces work,
// Landlock otherwise, Seatbelt on macOS (Policy.Wrap, Backend). A Policy
// says what a command may read, write and reach; Annotate tells the model
// when a failure looks like the sandbox's doing.
//
// It owns isolation only: whether a call may run at all (modes, rules,
// grants, trust) is internal/permission's, and it must not decide, ask or
// print.
package sandbox
