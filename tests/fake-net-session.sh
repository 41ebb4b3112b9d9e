#!/bin/sh
# fake-net-session.sh: a stand-in for paddock-run that asks its window about connections
#
# Copyright 2026 The Paddock authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The window starts it as its paddock-run (PADDOCK_RUN names it) and it
# speaks the control protocol on its --control-fd, which must be 3: it
# greets (with the network "on" where it was given --net=locked), then asks about each connection of
# $PADDOCK_TEST_NET_ASKS ("ID:HOST:PORT" words), one at a time, as the
# network lock's proxy does (issue 36). Each decide it gets is printed
# on its terminal as "answer ID DECISION REMEMBER", then told as decided
# and as a net message, and an allowed one's end follows. It prints its
# own command line first ("args: ..."), so a test sees the options the
# window gave it. It ends when the window closes its socket or asks for
# a kill.

echo "args: $*"
fd=
network=off
while [ $# -gt 0 ]; do
  [ "$1" = --control-fd ] && fd=$2
  [ "$1" = --net=locked ] && network=on
  shift
done
if [ "$fd" != 3 ]; then
  echo "fake-net-session.sh: no --control-fd 3" >&2
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

send "{\"type\":\"hello\",\"version\":1,\"session\":\"fake-net-$$\",\"project\":\"$PWD\",\"command\":[\"sh\"],\"agent_pid\":$$,\"lock\":\"off\",\"network\":\"$network\",\"features\":[]}"
echo "fake session $$ greeted"

asks=${PADDOCK_TEST_NET_ASKS:-}
if [ -n "${PADDOCK_TEST_NET_OUT:-}" ] && ! mkdir "$PADDOCK_TEST_NET_OUT/asker" 2>/dev/null; then
  asks=
fi

for connection in $asks; do
  id=${connection%%:*}
  rest=${connection#*:}
  host=${rest%%:*}
  port=${rest#*:}
  if [ "$id" = "${PADDOCK_TEST_NET_WAIT:-}" ]; then
    i=0
    while [ ! -e "$PADDOCK_TEST_NET_OUT/go" ] && [ $i -lt 1200 ]; do
      sleep 0.05
      i=$((i + 1))
    done
  fi
  time=$(now_us)
  send "{\"type\":\"ask\",\"kind\":\"host\",\"id\":$id,\"time\":$time,\"mono\":1,\"pid\":$$,\"ppid\":1,\"cwd\":\"$PWD\",\"exe\":\"/usr/bin/curl\",\"path\":\"/usr/bin/curl\",\"host\":\"$host\",\"port\":$port,\"argv\":[\"curl\",\"-s\",\"https://$host/\"],\"argc\":3,\"deadline\":$((time + 300000000))}"
  send "{\"type\":\"net\",\"host\":\"$host\",\"port\":$port,\"decision\":\"ask\",\"pid\":$$,\"exe\":\"/usr/bin/curl\",\"id\":$id,\"time\":$time}"
  while IFS= read -r line <&3; do
    case $line in
      *'"type":"decide"'*) ;;
      *) continue ;;
    esac
    [ "$(field "$line" id)" = "$id" ] || continue
    decision=$(field "$line" decision)
    remember=$(field "$line" remember)
    echo "answer $id $decision ${remember:-once}"
    send "{\"type\":\"decided\",\"kind\":\"host\",\"id\":$id,\"time\":$(now_us),\"decision\":\"$decision\",\"by\":\"user\",\"remember\":\"${remember:-once}\"}"
    send "{\"type\":\"net\",\"host\":\"$host\",\"port\":$port,\"decision\":\"$decision\",\"by\":\"user\",\"pid\":$$,\"exe\":\"/usr/bin/curl\",\"id\":$id,\"time\":$(now_us)}"
    if [ "$decision" = allow ]; then
      send "{\"type\":\"net\",\"kind\":\"end\",\"host\":\"$host\",\"port\":$port,\"decision\":\"allow\",\"pid\":$$,\"exe\":\"/usr/bin/curl\",\"id\":$id,\"address\":\"127.0.0.1\",\"bytes_in\":4096,\"bytes_out\":512,\"duration\":2000,\"time\":$(now_us)}"
    fi
    break
  done
done
echo "fake session $$ asked all"
# A kill (the window's Restart) ends it, as it ends paddock-run.
while IFS= read -r line <&3; do
  case $line in
    *'"type":"kill"'*) exit 0 ;;
  esac
done
