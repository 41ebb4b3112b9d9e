#!/bin/sh
# fake-home-session.sh: a stand-in for paddock-run that asks its window about reads in the home folder
#
# Copyright 2026 The Paddock authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window starts it as its paddock-run (PADDOCK_RUN names it) and it
# speaks the control protocol on its --control-fd, which must be 3: it
# greets, then asks about each read of $PADDOCK_TEST_HOME_ASKS
# ("ID:ENTRY:NAME" words, ENTRY below $HOME), one at a time, as the home
# view of a locked session does (issue 35). Each decide it gets is
# printed on its terminal as "answer ID DECISION REMEMBER", then told as
# decided and as a home message. Before the ask whose ID is
# $PADDOCK_TEST_HOME_WAIT it waits for the file $PADDOCK_TEST_HOME_OUT/go.
# Only the first one started asks (it claims $PADDOCK_TEST_HOME_OUT/asker);
# another only greets. Each ends when the window closes its socket.

fd=
while [ $# -gt 0 ]; do
  [ "$1" = --control-fd ] && fd=$2
  shift
done
if [ "$fd" != 3 ]; then
  echo "fake-home-session.sh: no --control-fd 3" >&2
  exit 2
fi

now_us () {
  echo $(($(date +%s) * 1000000))
}

send () {
  printf '%s\n' "$1" >&3
}

field () {
  printf '%s\n' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([a-z0-9]*\).*/\1/p"
}

send "{\"type\":\"hello\",\"version\":1,\"session\":\"fake-home-$$\",\"project\":\"$PWD\",\"command\":[\"sh\"],\"agent_pid\":$$,\"lock\":\"off\",\"network\":\"off\",\"features\":[]}"
echo "fake session $$ greeted"

if ! mkdir "$PADDOCK_TEST_HOME_OUT/asker" 2>/dev/null; then
  cat <&3 >/dev/null
  exit 0
fi

for read in $PADDOCK_TEST_HOME_ASKS; do
  id=${read%%:*}
  rest=${read#*:}
  entry=$HOME/${rest%%:*}
  name=${rest#*:}
  if [ "$id" = "${PADDOCK_TEST_HOME_WAIT:-}" ]; then
    i=0
    while [ ! -e "$PADDOCK_TEST_HOME_OUT/go" ] && [ $i -lt 1200 ]; do
      sleep 0.05
      i=$((i + 1))
    done
  fi
  time=$(now_us)
  send "{\"type\":\"ask\",\"kind\":\"home\",\"id\":$id,\"time\":$time,\"mono\":1,\"pid\":$$,\"ppid\":1,\"cwd\":\"$PWD\",\"exe\":\"/usr/bin/mvn\",\"path\":\"$entry\",\"name\":\"$name\",\"argv\":[\"mvn\",\"-q\",\"package\"],\"argc\":3,\"deadline\":$((time + 300000000))}"
  send "{\"type\":\"home\",\"path\":\"$entry\",\"name\":\"$name\",\"decision\":\"ask\",\"pid\":$$,\"exe\":\"/usr/bin/mvn\",\"id\":$id,\"time\":$time}"
  while IFS= read -r line <&3; do
    case $line in
      *'"type":"decide"'*) ;;
      *) continue ;;
    esac
    [ "$(field "$line" id)" = "$id" ] || continue
    decision=$(field "$line" decision)
    remember=$(field "$line" remember)
    echo "answer $id $decision ${remember:-once}"
    send "{\"type\":\"decided\",\"kind\":\"home\",\"id\":$id,\"time\":$(now_us),\"decision\":\"$decision\",\"by\":\"user\",\"remember\":\"${remember:-once}\"}"
    send "{\"type\":\"home\",\"path\":\"$entry\",\"name\":\"$name\",\"decision\":\"$decision\",\"by\":\"user\",\"pid\":$$,\"exe\":\"/usr/bin/mvn\",\"id\":$id,\"time\":$(now_us)}"
    break
  done
done
echo "fake session $$ asked all"
cat <&3 >/dev/null
