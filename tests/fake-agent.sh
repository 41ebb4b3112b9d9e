#!/bin/sh
# fake-agent.sh: a scripted stand-in for a coding agent, run under paddock-run by the tests
# of test-session.h (and test-protocol)
#
# Copyright 2026 The Paddock authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: fake-agent.sh OUT SCENARIO
# Each step appends "name=STATUS" to OUT/log and the shell's complaints to
# OUT/err, so a test can tell which programs ran, which were refused and
# how. The side effects a test looks for are files: OUT/allowed-marker,
# OUT/denied-marker, OUT/asked-marker.

out=$1
scenario=$2

step () {
  name=$1
  shift
  ( "$@" ) 2>>"$out/err"
  echo "$name=$?" >>"$out/log"
}

# Waits for the file $1, which the test makes whole (renamed into place),
# a minute at the least.
wait_for () {
  i=0
  while [ ! -e "$1" ] && [ $i -lt 1200 ]; do
    sleep 0.05
    i=$((i + 1))
  done
}

# The archives the unpacking scenarios use, and OUT/bin for a stand-in
# curl: OUT/pack/t.tgz, as a download brings it, whose t/install.sh
# (packed with a time long past, as a release's is) leaves
# unpacked-marker; OUT/local.tar, whose l/install.sh leaves local-marker.
make_archives () {
  mkdir -p "$out/bin" "$out/pack/t" "$out/local/l"
  echo "touch \"$out/unpacked-marker\"" >"$out/pack/t/install.sh"
  chmod +x "$out/pack/t/install.sh"
  touch -d @1000000000 "$out/pack/t/install.sh"
  tar czf "$out/pack/t.tgz" -C "$out/pack" t
  echo "touch \"$out/local-marker\"" >"$out/local/l/install.sh"
  tar cf "$out/local.tar" -C "$out/local" l
}

echo "start" >>"$out/log"
case $scenario in
  basic)
    step true /bin/true
    step allowed touch "$out/allowed-marker"
    step denied touch "$out/denied-marker"
    step asked touch "$out/asked-marker"
    ;;
  ask)
    step allowed touch "$out/allowed-marker"
    step asked touch "$out/asked-marker"
    step after /bin/true
    ;;
  ask-twice)
    # The same command twice: a remembered answer decides the second.
    step asked touch "$out/asked-marker"
    rm -f "$out/asked-marker"
    step again touch "$out/asked-marker"
    ;;
  not-executable)
    # exec refuses these whoever asks: no run to record.
    printf '#!/bin/sh\ntouch "$1"\n' >"$out/script"
    chmod 644 "$out/script"
    step script "$out/script" "$out/script-marker"
    step folder "$out"
    step after /bin/true
    ;;
  wait-then-ask)
    wait_for "$out/go"
    step asked touch "$out/asked-marker"
    ;;
  download-then-run)
    # Downloads in one command, runs in the next: a stand-in for curl (no
    # network here) saves a script that leaves a marker named after the
    # URL, to -o FILE, to its standard output, or (-OJ) to a name "the
    # server sent", served-URL. A script the agent wrote itself runs beside
    # them.
    mkdir -p "$out/bin" "$out/work"
    cat >"$out/bin/curl" <<EOF
#!/bin/sh
file=
while [ \$# -gt 0 ]; do
  case \$1 in
    -o) shift; file=\$1 ;;
    -OJ) served=1 ;;
    http*) url=\$1 ;;
  esac
  shift
done
[ -n "\$served" ] && file="served-\${url##*/}"
script="touch \"$out/\${url##*/}-marker\""
if [ -n "\$file" ]; then echo "\$script" >"\$file"; else echo "\$script"; fi
EOF
    chmod +x "$out/bin/curl"
    cd "$out/work" || exit 1
    step download "$out/bin/curl" -fsSL -o i.sh https://x.example/i.sh
    echo "touch \"$out/local-marker\"" >local.sh
    step local sh local.sh
    step downloaded sh i.sh
    step downloaded-again sh i.sh
    step redirected "$out/bin/curl" -fsSL https://x.example/j.sh >j.sh
    step run-redirected sh j.sh
    step server-named "$out/bin/curl" -fsSL -OJ https://x.example/k.sh
    step run-server-named sh served-k.sh
    ;;
  clone-then-run)
    # Clones, then runs what the clone wrote: a stand-in for git (no
    # network here) makes the folder with a script that leaves a marker
    # named after the URL. A clone of a local folder, and a script written
    # into the clone's folder after it ended, run beside them.
    mkdir -p "$out/bin" "$out/work"
    cat >"$out/bin/git" <<EOF
#!/bin/sh
[ "\$1" = clone ] || exit 2
url=\$2
dir=\${3:-\${url##*/}}
dir=\${dir%.git}
mkdir -p "\$dir"
echo "touch \"$out/\${url##*/}-marker\"" >"\$dir/install.sh"
chmod +x "\$dir/install.sh"
EOF
    chmod +x "$out/bin/git"
    cd "$out/work" || exit 1
    step clone "$out/bin/git" clone https://x.example/tool.git
    step cloned sh tool/install.sh
    step cloned-again ./tool/install.sh
    step local-clone "$out/bin/git" clone "$out/work/tool" copy
    step copied sh copy/install.sh
    # The clone ended before `step cloned`, whose exec saw that it had:
    # what is written here, later, is not the clone's.
    echo "touch \"$out/built-marker\"" >tool/built.sh
    step built sh tool/built.sh
    ;;
  unpack-then-run)
    # Downloads an archive and runs what it unpacks: the stand-in for curl
    # saves a tarball made here, whose script (packed with a time long
    # past, as a release's is) leaves a marker. A local archive's script,
    # and a script written into the folder after tar ended, run beside it.
    make_archives
    mkdir -p "$out/work"
    cat >"$out/bin/curl" <<END
#!/bin/sh
while [ \$# -gt 0 ]; do
  case \$1 in
    -o) shift; cp "$out/pack/t.tgz" "\$1" ;;
  esac
  shift
done
END
    chmod +x "$out/bin/curl"
    cd "$out/work" || exit 1
    step download "$out/bin/curl" -fsSL -o t.tgz https://x.example/t.tgz
    step unpack tar -xzf t.tgz
    step unpacked sh t/install.sh
    step unpacked-again ./t/install.sh
    # The next exec sees that tar ended; what is written a tick (4 ms at
    # 250 Hz, the file times' clock) after that is not tar's. The sleep
    # waits for that clock, which no load makes faster.
    mkdir into
    sleep 0.05
    step local-unpack tar xf ../local.tar -C into
    step local sh into/l/install.sh
    echo "touch \"$out/built-marker\"" >t/built.sh
    step built sh t/built.sh
    ;;
  pipe-unpack-then-run)
    # Pipes a download into tar, the download running first and then tar
    # running first, and unpacks a downloaded archive from a redirection;
    # pipes a download into tee, in both orders too; then runs what each
    # saved. An archive piped from cat, and a script from echo, are not
    # downloaded. The stand-in for curl writes the tarball (or for a URL
    # ending in .sh, a script) to standard output where no -o is given.
    make_archives
    mkdir -p "$out/work/a" "$out/work/b" "$out/work/c" "$out/work/d"
    cat >"$out/bin/curl" <<END
#!/bin/sh
saved=
while [ \$# -gt 0 ]; do
  case \$1 in
    -o) shift; cp "$out/pack/t.tgz" "\$1"; saved=1 ;;
  esac
  last=\$1
  shift
done
case \$saved\$last in
  *.sh) echo 'touch "$out/unpacked-marker"' ;;
  http*) cat "$out/pack/t.tgz" ;;
esac
END
    chmod +x "$out/bin/curl"
    cd "$out/work" || exit 1
    step curl-first sh -c "\"$out/bin/curl\" -fsSL https://x.example/t.tgz | (sleep 0.2; exec tar xzf - -C a)"
    step tar-first sh -c "(sleep 0.2; exec \"$out/bin/curl\" -fsSL https://x.example/t.tgz) | tar xz -C b"
    step download "$out/bin/curl" -fsSL -o t.tgz https://x.example/t.tgz
    step redirected sh -c "tar xz -C c < t.tgz"
    step local-unpack sh -c "cat \"$out/local.tar\" | tar x -C d"
    step tee-first sh -c "(sleep 0.2; exec \"$out/bin/curl\" -fsSL https://x.example/e.sh) | tee e.sh >/dev/null"
    step curl-tee sh -c "\"$out/bin/curl\" -fsSL https://x.example/f.sh | (sleep 0.2; exec tee -a f.sh) >/dev/null"
    step local-tee sh -c "echo 'touch \"$out/local-marker\"' | tee g.sh >/dev/null"
    step piped-a sh a/t/install.sh
    step piped-b sh b/t/install.sh
    step redirected-run sh c/t/install.sh
    step local sh d/l/install.sh
    step teed-e sh e.sh
    step teed-f sh f.sh
    step local-teed sh g.sh
    ;;
  filter-unpack-then-run)
    # Pipes a download into tar through other programs: gzip -d, in the
    # order curl, gzip, tar, and then tar, gzip, curl (gzip itself, not
    # Debian's gunzip, a script that runs it); tee, which keeps a copy
    # too; then runs what each unpacked. An archive piped from a file
    # through cat is not downloaded. The stand-in for curl writes the
    # tarball to standard output.
    make_archives
    mkdir -p "$out/work/h" "$out/work/i" "$out/work/j" "$out/work/k"
    printf '#!/bin/sh\ncat "%s"\n' "$out/pack/t.tgz" >"$out/bin/curl"
    chmod +x "$out/bin/curl"
    cd "$out/work" || exit 1
    step curl-first sh -c "\"$out/bin/curl\" -fsSL https://x.example/t.tgz | (sleep 0.2; exec gzip -d) | (sleep 0.4; exec tar x -C h)"
    step tar-first sh -c "(sleep 0.4; exec \"$out/bin/curl\" -fsSL https://x.example/t.tgz) | (sleep 0.2; exec gzip -dc) | tar x -C i"
    step tee-through sh -c "\"$out/bin/curl\" -fsSL https://x.example/t.tgz | tee copy.tgz | tar xz -C j"
    step local-filtered sh -c "cat \"$out/local.tar\" | cat | tar x -C k"
    step piped-h sh h/t/install.sh
    step piped-i sh i/t/install.sh
    step piped-j sh j/t/install.sh
    step local sh k/l/install.sh
    ;;
  busy-until-go)
    # Starts programs back to back, and ticks after each, until told to
    # stop, or for a minute or so at most (a failed test does not tell it).
    i=0
    while [ ! -e "$out/go" ] && [ $i -lt 30000 ]; do
      /bin/true
      echo >>"$out/ticks"
      i=$((i + 1))
    done
    ;;
  ticking-ignoring-term)
    # Deaf to SIGTERM, as are the programs it starts, ticks ten times a
    # second until told to stop, or for a minute or so at most.
    trap '' TERM
    i=0
    while [ ! -e "$out/go" ] && [ $i -lt 600 ]; do
      sleep 0.1
      echo >>"$out/ticks"
      i=$((i + 1))
    done
    ;;
  ask-beside-runs)
    # Other programs run while the ask waits for its answer.
    wait_for "$out/go"
    ( i=0; while [ $i -lt 8 ]; do /bin/true; sleep 0.05; i=$((i + 1)); done ) &
    step asked touch "$out/asked-marker"
    wait
    ;;
  connect)
    step connect "$PADDOCK_TEST_HELPER" --helper connect "$out/peer"
    ;;
  connect-out-of-descriptors)
    # Holds paddock-run's descriptors (one per running program), then
    # connects from inside the tree while the test frees them one at a
    # time. From the go on, nothing here execs but the connecting helper:
    # an exec would take a descriptor that comes free.
    i=0
    pids=
    while [ $i -lt 150 ]; do
      /bin/sleep 60 &
      pids="$pids $!"
      i=$((i + 1))
    done
    echo "$pids" >"$out/pids"
    wait_for "$out/go"
    "$PADDOCK_TEST_HELPER" --helper connect "$out/peer" &
    wait $!
    echo "connect=$?" >>"$out/log"
    kill $pids 2>/dev/null
    wait
    ;;
  junk)
    step junk "$PADDOCK_TEST_HELPER" --helper junk
    ;;
  chroot)
    # A program that exists only under another root (it cannot start
    # there: no loader), and the same absolute path in ours is missing.
    mkdir -p "$out/root/bin"
    cp /bin/true "$out/root/bin/chrooted-probe"
    step chroot chroot "$out/root" /bin/chrooted-probe
    step after /bin/true
    ;;
  private-tmp)
    # Under the folder lock the agent's /tmp is its own: a program put
    # there runs, though paddock-run's /tmp has no such file.
    cp /bin/true /tmp/paddock-private-probe
    step private /tmp/paddock-private-probe
    ;;
  replaced)
    # One path, three programs: the one it named, another once it was
    # repointed, and none once it was removed (a miss, not a run).
    cp /bin/true "$out/first"
    cp /bin/false "$out/second"
    ln -s first "$out/tool"
    step first "$out/tool"
    ln -sfn second "$out/tool"
    step second "$out/tool"
    rm "$out/tool"
    step gone "$out/tool"
    ;;
  own-mounts)
    # A process in a mount namespace of its own runs a program only its
    # mounts hold.
    step own unshare --map-root-user --mount sh -c \
      'mount -t tmpfs paddock-probe /tmp && cp /bin/true /tmp/paddock-own-probe && /tmp/paddock-own-probe'
    ;;
  thread-exec)
    # A program run from a second thread replaces the whole process and
    # keeps its pid; the shell it runs writes that pid, then runs one more.
    step thread "$PADDOCK_BUILD_DIR/tests/thread-exec" "$out/pid" /bin/sh -c \
      'echo $$ >"$0"; /bin/true thread-child; exit 0' "$out/after"
    ;;
  proc-self)
    # Programs run through the caller's own /proc entries: a descriptor
    # (as fexecve() without execveat does), its exe (as a program that
    # runs itself again does). They are recorded as the files they are,
    # and decided by their names: touch denied-marker is denied here too.
    step fd sh -c 'exec 5</usr/bin/touch; /proc/self/fd/5 "$0/fd-ran"' "$out"
    step devfd sh -c 'exec 5</usr/bin/touch; /dev/fd/5 "$0/devfd-ran"' "$out"
    step threadself sh -c 'exec 5</usr/bin/touch; /proc/thread-self/fd/5 "$0/threadself-ran"' "$out"
    step selfexe sh -c '/proc/self/exe -c "exit 7"'
    step nofd sh -c '/dev/fd/9 x'
    step slash sh -c 'exec 5</usr/bin/touch; /dev/fd/5/ "$0/slash-ran"' "$out"
    step denied sh -c 'exec 5</usr/bin/touch; /dev/fd/5 "$0/denied-marker"' "$out"
    ;;
  exit-codes)
    # Grandchildren of paddock-run: how each ended is in its exit record.
    step three sh -c 'exit 3'
    step false /bin/false
    step killed sh -c 'kill -TERM $$'
    ;;
  exec-last)
    # The agent itself becomes another program, which soon ends: that
    # ends the new program's run, and the agent's run as replaced.
    step true /bin/true
    exec /bin/sh -c 'echo "last-program" >/dev/null; exit 7'
    ;;
  *)
    echo "fake-agent.sh: unknown scenario $scenario" >&2
    exit 2
    ;;
esac
echo "done" >>"$out/log"
