/* paddock-vault-broker-private.h: what the vault broker's files share: starting a vaulted program, pumping its output
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "paddock-lock.h"
#include "paddock-redactor.h"

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* One vaulted program to start: every descriptor borrowed. */
typedef struct
{
  int                 exe_fd;        /* the file that was hashed, run as it is */
  gboolean            exe_is_script; /* a #! script: its descriptor stays open for the interpreter */
  const char * const *argv;
  const char * const *envp;          /* holds the secret's value: wiped by the caller */
  int                 cwd_fd;        /* the caller's working directory */
  int                 stdio[3];      /* what becomes its standard input, output and error */
  gboolean            terminal;      /* stdio[1] is a pty's slave: it becomes the controlling terminal */
  PaddockLock        *lock;          /* the session's folder lock, or NULL */
} PaddockVaultChild;

/* Forks from paddock-run and runs the program under the lock. Returns its
 * pid, or -1 with @error saying which step failed (the program's name,
 * never its environment). The main thread; waits for the exec. */
pid_t  paddock_vault_child_spawn (const PaddockVaultChild *child,
                                  GError                 **error);

/* A thread that copies the program's output through a redactor to the
 * caller's descriptors, and (for a terminal) the caller's input to it. */
typedef struct _PaddockVaultPump PaddockVaultPump;

typedef struct
{
  int          output;      /* the program's stdout pipe, or the pty's master (taken) */
  int          errors;      /* its stderr pipe (taken), or -1 */
  int          input;       /* what the caller forwards its input into (taken), or -1 */
  int          caller_out;  /* paddock-secret's stdout, stderr (borrowed, must outlive the pump) */
  int          caller_err;
  PaddockRedactor *redactor; /* the secrets it masks (taken) */
} PaddockVaultPumpSetup;

/* Starts the thread. */
PaddockVaultPump *paddock_vault_pump_start       (const PaddockVaultPumpSetup *setup);
/* Readable once every output ended (or the pump was stopped). */
int               paddock_vault_pump_get_done_fd (PaddockVaultPump            *pump);
/* Tells the thread to end now (the session ends) and waits for it. */
void              paddock_vault_pump_free  (PaddockVaultPump            *pump);

G_END_DECLS
