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

/* The program a request names (paddock-vault-program.c). */
typedef struct
{
  int       cwd_fd;        /* the caller's working directory */
  int       root_fd;       /* the caller's root, or -1 */
  char     *cwd;           /* its path, for the record */
  int       exe_fd;        /* the file found, open: what is hashed is what runs */
  char     *exe;           /* its path, symlinks resolved */
  char     *sha256;
  gboolean  is_script;     /* starts with #! */
  gboolean  given_code;    /* a shell or interpreter given code to run (sh -c …) */
} PaddockVaultProgram;

#define PADDOCK_VAULT_PROGRAM_INIT { .cwd_fd = -1, .root_fd = -1, .exe_fd = -1 }

/* Finds argv[0] as execvp() would, from @caller's working directory and
 * inside its root, along @environ's PATH; opens and hashes it. FALSE
 * with the exit status a shell gives (127 not found, 126 not executable)
 * and @error naming the program. Blocks while it hashes. */
gboolean   paddock_vault_program_open     (PaddockVaultProgram *program,
                                           pid_t                caller,
                                           const char * const  *argv,
                                           const char * const  *environ,
                                           int                 *exit_code,
                                           GError             **error);
void       paddock_vault_program_clear    (PaddockVaultProgram *program);

/* The caller's @environ for the program: less what changes what a program
 * loads (LD_*, NODE_OPTIONS, BASH_ENV, PYTHONPATH, …) and the variables
 * @vars sets, each then set to its value in @values. Free it with
 * paddock_vault_environment_free(), which wipes it. */
GPtrArray *paddock_vault_environment_new  (const char * const  *environ,
                                           const char * const  *vars,
                                           GBytes * const      *values);
void       paddock_vault_environment_free (GPtrArray           *envp);

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
