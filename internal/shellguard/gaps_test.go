package shellguard

import "testing"

// guardCase is one command and the verdict and rule it must get.
type guardCase struct {
	cmd     string
	verdict Level
	rule    string
}

func checkAll(t *testing.T, opts Options, tests []guardCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			v := Check(tt.cmd, opts)
			if v.Verdict != tt.verdict || v.Rule != tt.rule {
				t.Errorf("Check(%q) = %s/%s (%s), want %s/%s", tt.cmd, v.Verdict, v.Rule, v.Reason, tt.verdict, tt.rule)
			}
		})
	}
}

// TestUnknownCommandCarryingDangerousLineAsks: a command the guard does
// not know, given a dangerous command line as its arguments, asks; known
// wrappers keep the verdict of what they run; data commands stay allowed.
func TestUnknownCommandCarryingDangerousLineAsks(t *testing.T) {
	checkAll(t, caseOpts, []guardCase{
		{`mywrapper rm -rf /`, Ask, RuleWrappedCommand},
		{`retry sudo dd of=/dev/sda`, Ask, RuleWrappedCommand},
		{`retry 3 git push --force`, Ask, RuleWrappedCommand},
		{`mywrapper --times 2 -- rm -rf ~`, Ask, RuleWrappedCommand},
		{`watchexec -- /usr/bin/rm -rf build`, Ask, RuleWrappedCommand},
		{`poetry run python -c 'import os'`, Ask, RuleWrappedCommand},
		{`ls && mywrapper mkfs.ext4 /dev/sdb1`, Ask, RuleWrappedCommand},
		// known wrappers: the verdict of the command they run
		{`xargs rm -rf`, Ask, RuleDeleteRecursive},
		{`env FOO=1 rm -rf ~`, Deny, RuleDeleteProtected},
		{`nice -n 5 rm -rf /`, Deny, RuleDeleteProtected},
		{`timeout 5 sudo rm -rf /`, Deny, RuleDeleteProtected},
		{`timeout 5 sudo dd of=/dev/sda`, Deny, RuleDiskWrite},
		// words that are data, and package names that are commands
		{`echo rm -rf /`, Allow, RuleDefault},
		{`man rm`, Allow, RuleDefault},
		{`grep -rn "rm -rf" .`, Allow, RuleDefault},
		{`which sudo`, Allow, RuleDefault},
		{`apt install bash`, Allow, RuleDefault},
		{`brew install python node`, Allow, RuleDefault},
		{`make install`, Allow, RuleDefault},
		{`npm run watch`, Allow, RuleDefault},
		{`cargo run -- find .`, Allow, RuleDefault},
		{`mywrapper rm foo.txt`, Allow, RuleDefault},
		{`mywrapper ls -la`, Allow, RuleDefault},
	})
}

// TestWorkspaceDeleteAsks: a recursive delete of the workspace root
// itself asks under its own rule (never refused, never silently run);
// when the workspace is also the home directory or a system path, or the
// delete reaches above it, it stays refused.
func TestWorkspaceDeleteAsks(t *testing.T) {
	checkAll(t, caseOpts, []guardCase{
		{`rm -r -f .`, Ask, RuleDeleteWorkspace},
		{`rm -rf ./`, Ask, RuleDeleteWorkspace},
		{`rm -rf "$PWD"`, Ask, RuleDeleteWorkspace},
		{`rm -rf *`, Ask, RuleDeleteWorkspace},
		{`rm -rf ./* `, Ask, RuleDeleteWorkspace},
		{`find . -delete`, Ask, RuleDeleteWorkspace},
		{`rm -rf *.o`, Ask, RuleDeleteRecursive},
		{`rm -rf ..`, Deny, RuleDeleteProtected},
		{`cd / && rm -rf *`, Deny, RuleDeleteProtected},
	})
	inHome := Options{Workspace: "/home/dev", Home: "/home/dev", TempDirs: []string{"/tmp"}}
	checkAll(t, inHome, []guardCase{
		{`rm -rf .`, Deny, RuleDeleteProtected},
		{`rm -rf *`, Deny, RuleDeleteProtected},
	})
	underUsr := Options{Workspace: "/usr/src/app", Home: "/root", TempDirs: []string{"/tmp"}}
	checkAll(t, underUsr, []guardCase{{`rm -rf .`, Deny, RuleDeleteProtected}})
}

// TestOrdinaryFileDeleteNotFlagged: deleting ordinary files in the
// workspace (or temp) is left to the mode; deleting outside, by a glob,
// through a run-time path or a control file still asks.
func TestOrdinaryFileDeleteNotFlagged(t *testing.T) {
	checkAll(t, caseOpts, []guardCase{
		{`rm foo.txt`, Allow, RuleDefault},
		{`rm -f build/out.o notes.md`, Allow, RuleDefault},
		{`rmdir empty`, Allow, RuleDefault},
		{`unlink old.log`, Allow, RuleDefault},
		{`rm /tmp/x.log`, Allow, RuleDefault},
		{`rm ~/notes.txt`, Ask, RuleDeleteFiles},
		{`rm ../other/x`, Ask, RuleDeleteFiles},
		{`rm *.o`, Ask, RuleDeleteFiles},
		{`rm "$F"`, Ask, RuleDeleteFiles},
		{`rm .git/hooks/pre-commit`, Ask, RuleWriteControl},
		{`rm .env`, Ask, RuleSecretAccess},
		{`shred notes.txt`, Ask, RuleDeleteFiles},
		{`xargs -a list.txt rm`, Ask, RuleDeleteFiles},
	})
}
