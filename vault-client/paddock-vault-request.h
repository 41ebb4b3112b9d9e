/* paddock-vault-request.h: what paddock-secret asks its session's vault for, as one JSON line
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One request per connection to the vault socket (see
 * sandbox/supervisor/paddock-vault-broker.h for the whole exchange).
 * Written by paddock-secret, read by paddock-run: parsing is strict, as
 * the agent writes what reaches it. No request holds a secret's value;
 * it names secrets only.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PADDOCK_VAULT_REQUEST_ERROR (paddock_vault_request_error_quark ())

typedef enum
{
  PADDOCK_VAULT_REQUEST_RUN = 1,
  PADDOCK_VAULT_REQUEST_LIST,
} PaddockVaultRequestType;

typedef struct
{
  PaddockVaultRequestType  type;
  /* run */
  char                   **argv;        /* PROGRAM [ARG…], never empty */
  char                   **env_vars;    /* --env VAR=NAME: the VARs … */
  char                   **env_names;   /* … and the NAMEs, in the same order */
  char                    *stdin_name;  /* --stdin NAME, or NULL */
  char                   **environ;     /* the caller's environment, "K=V" */
  gboolean                 tty;         /* the caller's output is a terminal */
  gboolean                 tty_input;   /* with tty: the caller's input is a terminal, which
                                         * it forwards through the "stdin" descriptor */
} PaddockVaultRequest;

GQuark               paddock_vault_request_error_quark (void);

PaddockVaultRequest *paddock_vault_request_new         (PaddockVaultRequestType    type);
void                 paddock_vault_request_free        (PaddockVaultRequest       *request);
/* The request as one line, "\n" included. */
char                *paddock_vault_request_to_line     (const PaddockVaultRequest *request);
/* Checks every field (names of secrets and variables, a program, at least
 * one secret, no variable twice); the error names what is wrong. */
PaddockVaultRequest *paddock_vault_request_parse       (const char                *line,
                                                        gsize                      length,
                                                        GError                   **error);

/* A signal for the running program: {"type":"signal","signal":N}. */
char                *paddock_vault_signal_to_line      (int                        signo);
/* Its number, or -1 with @error for anything else. */
int                  paddock_vault_request_parse_signal (const char               *line,
                                                         gsize                     length,
                                                         GError                  **error);

/* Whether @name can be an environment variable's name: a letter or '_',
 * then letters, digits and '_'. */
gboolean             paddock_vault_check_variable      (const char                *name,
                                                        GError                   **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PaddockVaultRequest, paddock_vault_request_free)

G_END_DECLS
