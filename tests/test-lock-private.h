/* test-lock-private.h: what the folder lock's escape suite shares between its files
 *
 * Copyright 2026 The Paddock authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "test-util.h"

#include <glib.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/* The runner, the backend under test, and the tree made by main(). */
extern const char *paddock_run;
extern const char *backend;
extern gboolean has_no_monitor;
extern char *base, *home, *project, *outside, *bindir, *config_home, *state_home, *runtime_dir;

char       **child_env                   (void);
void         add_command                 (GPtrArray *argv, const char * const *extra, const char *script);
GPtrArray   *command_line                (gboolean locked, const char * const *extra, const char *script);
TestResult  *attempt_as                  (gboolean locked, const char * const *extra, const char *script,
                                          const char *pid_file, GSpawnChildSetupFunc setup);
TestResult  *attempt_full                (gboolean locked, const char * const *extra, const char *script,
                                          const char *pid_file);
TestResult  *attempt                     (gboolean locked, const char *script);
TestResult  *attempt_in_pty              (gboolean locked, const char * const *extra, const char *script,
                                          const char *when, const char *input);
char        *read_file                   (const char *path);
void         write_file                  (const char *path, const char *text);
char        *out_path                    (const char *name);
TestResult  *run_without_user_namespaces (GPtrArray *args);
void         assert_secret_only_unlocked (const char *script);

void test_write_outside (void);
void test_create_outside (void);
void test_rename_outside (void);
void test_link_outside (void);
void test_truncate_outside (void);
void test_read_ssh_key (void);
void test_read_credential_stores (void);
void test_user_denials (void);
void test_symlink_in_project (void);
void test_hard_link_into_project (void);
void test_proc_self_root (void);
void test_proc_cwd (void);
void test_proc_environ (void);
void test_proc_mem (void);
void test_prlimit_outside (void);
void test_setpriority_outside (void);
void test_affinity_outside (void);
void test_proc_cmdline (void);
void test_own_limits (void);
void test_setuid (void);
void test_inherited_fd (void);
void test_root_read_shadow (void);
void test_root_raw_socket (void);
void test_root_chown (void);
void test_setuid_bit (void);
void test_root_setcap (void);
void test_sysv_shm (void);
void test_sysv_shm_unprivileged (void);
void test_posix_mqueue (void);
void test_unshare_user (void);
void test_tiocsti (void);
void test_signal_supervisor (void);
void test_own_settings_denied (void);
void test_socket_runtime_dir (void);
void test_socket_tmp (void);
void test_socket_run (void);
void test_socket_x11 (void);
void test_socket_abstract (void);
void test_socket_unprivileged (void);
void test_socket_denied_folder (void);
void test_stat_denied_folder (void);
void test_chmod_outside (void);
void test_utime_outside (void);
void test_setxattr_outside (void);
void test_chmod_unprivileged (void);
void test_other_terminal (void);
void test_own_terminal (void);
void test_socket_warning (void);
void test_project_under_tmp (void);
void test_build_and_run_c (void);
void test_git (void);
void test_profile_state_and_tmp (void);
void test_tui_draws (void);
void test_ctrl_c (void);
void test_job_control (void);
void test_bad_input (void);
void test_session_files (void);
void test_bad_backend_and_project (void);
void test_lock_status (void);
void test_saved_choice (void);

G_END_DECLS
