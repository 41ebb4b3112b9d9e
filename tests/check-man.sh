#!/bin/sh
# check-man.sh: the manual pages format without a warning, carry the
# programs' version, and have an entry for every option and command that
# the programs' own --help prints; paddock-policy(5)'s table of the
# default rules has each rule of the built-in policy, with its action, and
# no other.
#
#   check-man.sh PADDOCK_RUN PADDOCKCTL MAN_DIR [PADDOCK_SECRET]
#
# PADDOCK_RUN and PADDOCKCTL are the built programs; MAN_DIR holds
# paddock-run.1, paddockctl.1, paddock-policy.5 and default-policy.json;
# with PADDOCK_SECRET, paddock-secret.1 is checked against it too.
# Prints one line a problem, and exits 1 if there was any.
#
# Copyright 2026 The Paddock authors
# SPDX-License-Identifier: GPL-3.0-or-later

set -u

if [ $# -ne 3 ] && [ $# -ne 4 ]; then
  echo "usage: check-man.sh PADDOCK_RUN PADDOCKCTL MAN_DIR [PADDOCK_SECRET]" >&2
  exit 2
fi
paddock_run=$1
paddockctl=$2
man_dir=$3
paddock_secret=${4:-}

failed=0

fail () {
  echo "$1: $2"
  failed=1
}

# The tags of a page's .TP entries, the words that an option or a
# command is described under, as plain text: "\-" is "-", and the font
# changes, quotes and the macro name are gone (".BI \"attach \" SESSION"
# is "attach SESSION"). With SECTION, only the tags under ".SH SECTION".
entry_tags () {
  sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\f\[[^]]*\]//g' "$1" |
    awk -v section="${2:-}" '
      /^\.SH / { inside = section == "" || $0 == ".SH " section }
      inside && previous == ".TP" { print }
      { previous = $0 }' |
    sed -e 's/^\.[BIR]* //' -e 's/"//g' -e 's/  */ /g'
}

# Every --long-option in a --help text, once each.
long_options () {
  grep -o -e '--[a-z][a-z0-9-]*' | sort -u
}

# Whether a tag in TAGS holds OPTION as a whole word: "--lock" is not in
# "--lock-status".
has_option () {
  printf '%s\n' "$1" | grep -q -E -e "(^|[^a-z0-9-])$2([^a-z0-9-]|\$)"
}

# Whether a tag in TAGS begins with the words of COMMAND.
has_command () {
  printf '%s\n' "$1" | grep -q -E -e "^$2( |\$)"
}

# A page with a table says so on its first line, as man(1) needs to run
# tbl for it; groff runs tbl for every page here, which changes nothing
# for one without.
check_groff () {
  page=$1
  if grep -q '^\.TS' "$page" && [ "$(head -n 1 "$page")" != "'\\\" t" ]; then
    fail "$(basename "$page")" "it has a table (.TS) but its first line is not '\\\" t, so man would not run tbl"
  fi
  if ! warnings=$(groff -t -man -ww -z "$page" 2>&1) || [ -n "$warnings" ]; then
    printf '%s\n' "${warnings:-groff failed}" | while IFS= read -r line; do
      echo "$(basename "$page"): groff: $line"
    done
    failed=1
  fi
}

# 77: meson's skip, which its summary shows as such.
if ! command -v groff >/dev/null 2>&1; then
  echo "check-man.sh: groff not found (Debian: groff-base): the manual pages go unchecked" >&2
  exit 77
fi

run_page=$man_dir/paddock-run.1
ctl_page=$man_dir/paddockctl.1
policy_page=$man_dir/paddock-policy.5
default_policy=$man_dir/default-policy.json
for page in "$run_page" "$ctl_page" "$policy_page" "$default_policy"; do
  if [ ! -r "$page" ]; then
    fail "$(basename "$page")" "cannot read $page"
  fi
done
[ $failed -eq 0 ] || exit 1

check_groff "$run_page"
check_groff "$ctl_page"
check_groff "$policy_page"

# The version in each page's title is the programs' own.
version=$("$paddock_run" --version | sed -n 's/^paddock-run //p')
for page in "$run_page" "$ctl_page" "$policy_page"; do
  grep -q -e "^\.TH .* \"Paddock $version\"" "$page" ||
    fail "$(basename "$page")" "its .TH line does not say \"Paddock $version\", the version paddock-run --version prints"
done

run_tags=$(entry_tags "$run_page")
ctl_tags=$(entry_tags "$ctl_page")
ctl_commands=$(entry_tags "$ctl_page" COMMANDS)

help=$("$paddock_run" --help) || fail paddock-run.1 "paddock-run --help failed"
for option in $(printf '%s\n' "$help" | long_options); do
  has_option "$run_tags" "$option" ||
    fail paddock-run.1 "option $option (in paddock-run --help) has no entry"
done

usage=$("$paddockctl" --help) || fail paddockctl.1 "paddockctl --help failed"
# "  paddockctl kill|pause|resume SESSION" gives kill, pause and resume;
# "  paddockctl policy check FILE" gives "policy check".
commands=$(printf '%s\n' "$usage" | sed -n 's/^  paddockctl \([a-z|]*\) *\([a-z]*\).*/\1 \2/p' |
  while read -r verbs second; do
    for verb in $(printf '%s\n' "$verbs" | tr '|' ' '); do
      # The second word is part of the command only for policy, audit and
      # secret; elsewhere it is an argument ("lock on").
      case $verb in
        policy|audit|secret) echo "$verb $second" ;;
        *) echo "$verb" ;;
      esac
    done
  done)
[ -n "$commands" ] || fail paddockctl.1 "found no commands in paddockctl --help"
while IFS= read -r command; do
  [ -z "$command" ] || has_command "$ctl_commands" "$command" ||
    fail paddockctl.1 "command \"$command\" (in paddockctl --help) has no entry under COMMANDS"
done <<EOF_COMMANDS
$commands
EOF_COMMANDS

# The usage's own options (--version), then each command's: each option
# once, named after the first help that prints it.
checked=" "
for command in "" attach "policy explain" "audit show" "audit export" "secret add" "secret list"; do
  # The words of the command are its arguments, and "" none.
  # shellcheck disable=SC2086
  help=$("$paddockctl" $command --help) || fail paddockctl.1 "paddockctl $command --help failed"
  for option in $(printf '%s\n' "$help" | long_options); do
    case $checked in *" $option "*) continue ;; esac
    checked="$checked$option "
    has_option "$ctl_tags" "$option" ||
      fail paddockctl.1 "option $option (in paddockctl ${command:+$command }--help) has no entry"
  done
done

# paddock-secret(1): formats, carries the version, and has an entry for
# each option and command of paddock-secret --help.
if [ -n "$paddock_secret" ]; then
  secret_page=$man_dir/paddock-secret.1
  if [ ! -r "$secret_page" ]; then
    fail paddock-secret.1 "cannot read $secret_page"
  else
    check_groff "$secret_page"
    grep -q -e "^\.TH .* \"Paddock $version\"" "$secret_page" ||
      fail paddock-secret.1 "its .TH line does not say \"Paddock $version\", the version paddock-run --version prints"
    secret_tags=$(entry_tags "$secret_page")
    secret_commands=$(entry_tags "$secret_page" COMMANDS)
    help=$("$paddock_secret" --help) || fail paddock-secret.1 "paddock-secret --help failed"
    for option in $(printf '%s\n' "$help" | long_options); do
      has_option "$secret_tags" "$option" ||
        fail paddock-secret.1 "option $option (in paddock-secret --help) has no entry"
    done
    for command in $(printf '%s\n' "$help" | sed -n 's/^ *\(Usage: \)\{0,1\}paddock-secret \([a-z]*\).*/\2/p'); do
      has_command "$secret_commands" "$command" ||
        fail paddock-secret.1 "command \"$command\" (in paddock-secret --help) has no entry under COMMANDS"
    done
  fi
fi

# The built-in rules, "NAME ACTION" a line, first to last: each rule's
# "name" comes before its "action", one key a line, as the file is laid
# out.
policy_rules=$(awk '
  /^ *"name": *"/ { name = $0; sub(/^ *"name": *"/, "", name); sub(/".*/, "", name) }
  /^ *"action": *"/ { action = $0; sub(/^ *"action": *"/, "", action); sub(/".*/, "", action)
                      print name " " action; name = "" }' "$default_policy")
[ -n "$policy_rules" ] || fail default-policy.json "found no rules in it"

# The rows of the table under DEFAULT RULES, "NAME ACTION" a line: a row
# starts with the rule's name, a tab, and its action.
tab=$(printf '\t')
page_rules=$(sed -e 's/\\-/-/g' "$policy_page" |
  awk -v tab="$tab" '
    /^\.SH / { inside = $0 == ".SH DEFAULT RULES" }
    inside && /^\.TS/ { table = 1; next }
    inside && /^\.TE/ { table = 0 }
    table && split($0, cell, tab) >= 2 && cell[1] ~ /^[a-z0-9-]+$/ && cell[2] ~ /^(allow|ask|deny)$/ {
      print cell[1] " " cell[2] }')
[ -n "$page_rules" ] || fail paddock-policy.5 "found no table of the default rules under DEFAULT RULES"

while read -r name action; do
  [ -z "$name" ] && continue
  row=$(printf '%s\n' "$page_rules" | awk -v name="$name" '$1 == name { print $2 }')
  if [ -z "$row" ]; then
    fail paddock-policy.5 "the default rule \"$name\" (in default-policy.json) has no row under DEFAULT RULES"
  elif [ "$row" != "$action" ]; then
    fail paddock-policy.5 "the default rule \"$name\" is \"$action\" in default-policy.json, \"$row\" under DEFAULT RULES"
  fi
done <<EOF_RULES
$policy_rules
EOF_RULES

while read -r name action; do
  [ -z "$name" ] && continue
  printf '%s\n' "$policy_rules" | awk -v name="$name" '$1 == name { found = 1 } END { exit !found }' ||
    fail paddock-policy.5 "the row \"$name\" under DEFAULT RULES is no rule of default-policy.json"
done <<EOF_ROWS
$page_rules
EOF_ROWS

# In the same order, so that the table reads as the policy is decided.
if [ "$(printf '%s\n' "$policy_rules" | cut -d' ' -f1)" != "$(printf '%s\n' "$page_rules" | cut -d' ' -f1)" ]; then
  fail paddock-policy.5 "the rows under DEFAULT RULES are not in default-policy.json's order"
fi

exit $failed
