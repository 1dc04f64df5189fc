#!/bin/sh
in=$(cat)
case "$in" in *'"tool_name":"Bash"'*) ;; *) exit 0;; esac
case "$in" in *'rm -rf'*) echo "no rm -rf here: run make clean" >&2; exit 2;; esac
exit 0
