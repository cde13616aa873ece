;;; drive.el --- drive Emacs + eglot (batch) through the PTO server as a user would  -*- lexical-binding: t -*-

;; Open the example, wait for the diagnostics, ask for code actions on the loop that creates a
;; tensor, take the default choice (the preferred action), wait for that loop's warning to go, save,
;; wait for the on-save compile.
;;
;; Inputs come from the environment:
;;   PTO_E2E_INIT        the init file: the docs/editors.md configuration, unchanged but for the jar path
;;   PTO_E2E_FILE        the Python file to open (inside the workspace folder)
;;   PTO_E2E_LOG         where to write the JSON log the Java test reads
;;   PTO_E2E_TIMEOUT_MS  how long each step may wait
;;   PTO_E2E_SCENARIO    "quickfix" (the above, the default) or "compile": open PTO_E2E_FILE, a program
;;                       that does not compile, and record its diagnostics before any save; then open
;;                       PTO_E2E_SAVE_FILE and save it, and wait for its on-save compile
;; Every wait has a timeout; on any failure the log gets an "error" and Emacs exits with status 1.
;;
;; Batch Emacs has no command loop, so two things it would do by itself are done here where it would
;; do them: `post-command-hook' runs after each simulated command (eglot-ensure connects from it), and
;; idle timers that are due run while we wait (eglot sends didChange and flymake reports from them).

(require 'cl-lib)
(require 'json)
(require 'subr-x)

(defvar pto-e2e-file (or (getenv "PTO_E2E_FILE") (error "PTO_E2E_FILE not set")))
(defvar pto-e2e-log-path (or (getenv "PTO_E2E_LOG") (error "PTO_E2E_LOG not set")))
(defvar pto-e2e-timeout (/ (string-to-number (or (getenv "PTO_E2E_TIMEOUT_MS") "60000")) 1000.0))

(defvar pto-e2e-log (list (cons 'editor "emacs") (cons 'version emacs-version)))
(defvar pto-e2e-steps nil)
(defvar pto-e2e-published nil "Raw publishDiagnostics, newest first: (version . count).")
(defvar pto-e2e-messages nil "window/logMessage and window/showMessage texts, newest first.")

(defun pto-e2e--put (key value)
  (setq pto-e2e-log (cons (cons key value) (assq-delete-all key pto-e2e-log)))
  (pto-e2e--save))

(defun pto-e2e--save ()
  (let ((json-encoding-pretty-print nil)
        (out (append pto-e2e-log
                     (list (cons 'steps (vconcat (reverse pto-e2e-steps)))
                           (cons 'published (vconcat (mapcar (lambda (p) (list (cons 'version (car p))
                                                                                 (cons 'count (cdr p))))
                                                             (reverse pto-e2e-published))))
                           (cons 'messages (vconcat (reverse pto-e2e-messages)))))))
    (with-temp-file pto-e2e-log-path
      (insert (json-encode out)))))

(defun pto-e2e--step (name)
  (push name pto-e2e-steps)
  (pto-e2e--save))

(defun pto-e2e--run-due-idle-timers (idle-seconds)
  "Run the idle timers that would have fired after IDLE-SECONDS of idleness."
  (dolist (timer (copy-sequence timer-idle-list))
    (when (and (memq timer timer-idle-list)
               (time-less-p (timer--time timer) (seconds-to-time idle-seconds)))
      (timer-event-handler timer))))

(defun pto-e2e--wait (what predicate)
  "Wait until PREDICATE holds, processing server output and timers; fail after the step timeout."
  (let* ((start (float-time))
         (deadline (+ start pto-e2e-timeout)))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (error "timed out after %.0f s waiting for %s" pto-e2e-timeout what))
      (accept-process-output nil 0.02)
      (pto-e2e--run-due-idle-timers (- (float-time) start)))))

(defun pto-e2e--command (fn)
  "Run FN as the command loop would run a command: then `post-command-hook'."
  (prog1 (funcall fn)
    (run-hooks 'post-command-hook)))

;; What the server sends, recorded on the way to eglot's own handlers (which still run).
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (pcase method
                ('textDocument/publishDiagnostics
                 (push (cons (or (plist-get params :version) :null) (length (plist-get params :diagnostics)))
                       pto-e2e-published))
                ((or 'window/logMessage 'window/showMessage)
                 (push (plist-get params :message) pto-e2e-messages)))))

(defun pto-e2e--shown ()
  "Flymake's diagnostics in the current buffer (what the user sees), with 1-based lines."
  (let ((out nil))
    (dolist (d (flymake-diagnostics))
      (let* ((lsp (cdr (assoc 'eglot-lsp-diag (eglot--diag-data d))))
             (line (line-number-at-pos (flymake-diagnostic-beg d))))
        (push (list (cons 'code (plist-get lsp :code))
                    (cons 'line line)
                    (cons 'severity (plist-get lsp :severity))
                    (cons 'type (symbol-name (flymake-diagnostic-type d)))
                    (cons 'message (flymake-diagnostic-text d)))
              out)))
    (vconcat (sort out (lambda (a b)
                         (if (/= (alist-get 'line a) (alist-get 'line b))
                             (< (alist-get 'line a) (alist-get 'line b))
                           (string< (alist-get 'code a) (alist-get 'code b))))))))

(defun pto-e2e--published-p (version)
  (cl-some (lambda (p) (equal (car p) version)) pto-e2e-published))

(defun pto-e2e--line-of (needle)
  (save-excursion
    (goto-char (point-min))
    (when (search-forward needle nil t)
      (line-number-at-pos))))

(defun pto-e2e--run ()
  (pto-e2e--step "edit")
  (let ((buffer (pto-e2e--command (lambda () (find-file pto-e2e-file)))))
    (set-buffer buffer)
    (pto-e2e--put 'mode (symbol-name major-mode))
    (pto-e2e--wait "eglot to connect" (lambda () (and (bound-and-true-p eglot--managed-mode)
                                                       (eglot-current-server))))
    (let ((server (eglot-current-server)))
      (pto-e2e--put 'serverName (plist-get (eglot--server-info server) :name))
      (pto-e2e--step "attached")

      ;; Diagnostics of the opened version, as flymake shows them.
      (let ((opened eglot--versioned-identifier))
        (pto-e2e--put 'openedVersion opened)
        (pto-e2e--wait "diagnostics of the opened buffer"
                       (lambda () (and (pto-e2e--published-p opened) (> (length (flymake-diagnostics)) 0))))
        (pto-e2e--put 'initial (pto-e2e--shown))
        (pto-e2e--step "diagnostics"))

      ;; Code actions on the 'scratch = ...' line of the loop that creates a tensor.
      (let ((scratch-line (or (pto-e2e--line-of "scratch = pl.create_tensor(")
                              (error "no scratch line in the buffer")))
            (offered nil)
            (chosen nil))
        (pto-e2e--put 'actionLine scratch-line)
        (pto-e2e--put 'loopLine (1- scratch-line))
        (goto-char (point-min))
        (forward-line (1- scratch-line))
        (back-to-indentation)
        ;; The user answers eglot's prompt with RET, which takes its default: the preferred action.
        (cl-letf (((symbol-function 'completing-read)
                   (lambda (_prompt collection &optional _pred _req _init _hist def &rest _)
                     (setq offered (mapcar (lambda (item)
                                             (list (cons 'title (car item))
                                                   (cons 'kind (plist-get (cdr item) :kind))
                                                   (cons 'preferred (eq t (plist-get (cdr item) :isPreferred)))))
                                           collection))
                     (setq chosen (if (consp def) (car def) def))
                     chosen)))
          (let ((last-nonmenu-event ?\r)) ; a keyboard command, not a mouse click: prompt, no menu
            (pto-e2e--command (lambda ()
                                (eglot-code-actions (line-beginning-position) (line-end-position) nil t)))))
        (pto-e2e--put 'offered (vconcat offered))
        (unless (and chosen (string-prefix-p "Move 'scratch = " chosen))
          (error "the default code action is not \"Move 'scratch = ...'\": %S" chosen))
        (pto-e2e--put 'applied chosen)
        (pto-e2e--step "applied"))

      ;; eglot sends the edit as didChange once Emacs is idle; wait for its diagnostics.
      (pto-e2e--wait "eglot to send the edit" (lambda () (null eglot--recent-changes)))
      (let ((edited eglot--versioned-identifier))
        (pto-e2e--put 'editedVersion edited)
        (pto-e2e--wait (format "diagnostics of the edited buffer (version %s)" edited)
                       (lambda () (pto-e2e--published-p edited)))
        ;; flymake takes the new report on its next idle run
        (pto-e2e--wait "flymake to show the new diagnostics"
                       (lambda () (not (cl-some (lambda (d) (equal (plist-get (cdr (assoc 'eglot-lsp-diag (eglot--diag-data d))) :code) "PTO302"))
                                                (flymake-diagnostics)))))
        (pto-e2e--put 'after (pto-e2e--shown))
        (pto-e2e--step "rediagnosed"))

      ;; Save: didSave, and the server compiles on save.
      (pto-e2e--command (lambda () (save-buffer)))
      (pto-e2e--step "saved")
      (let (compiled)
        (pto-e2e--wait "the on-save compile"
                       (lambda () (setq compiled (cl-find-if (lambda (m) (string-prefix-p "pto: compiled" m))
                                                             pto-e2e-messages))))
        (pto-e2e--put 'compiled compiled))
      (pto-e2e--step "compiled")
      (pto-e2e--put 'ok t)
      (eglot-shutdown server nil pto-e2e-timeout))))

(defun pto-e2e--open (file)
  "Visit FILE as the user would and wait for eglot to manage it; return the server."
  (set-buffer (pto-e2e--command (lambda () (find-file file))))
  (pto-e2e--wait "eglot to connect" (lambda () (and (bound-and-true-p eglot--managed-mode)
                                                     (eglot-current-server))))
  (eglot-current-server))

(defun pto-e2e--run-compile ()
  (pto-e2e--step "edit")
  (let ((server (pto-e2e--open pto-e2e-file)))
    (pto-e2e--step "attached")
    (let ((opened eglot--versioned-identifier))
      (pto-e2e--wait "diagnostics of the opened buffer"
                     (lambda () (and (pto-e2e--published-p opened) (> (length (flymake-diagnostics)) 0))))
      (pto-e2e--put 'initial (pto-e2e--shown))
      (pto-e2e--step "diagnostics"))
    (let ((save-file (or (getenv "PTO_E2E_SAVE_FILE") (error "PTO_E2E_SAVE_FILE not set")))
          compiled)
      (pto-e2e--open save-file)
      (set-buffer-modified-p t)
      (pto-e2e--command (lambda () (save-buffer)))
      (pto-e2e--step "saved")
      (pto-e2e--wait "the on-save compile"
                     (lambda () (setq compiled (cl-find-if (lambda (m) (string-prefix-p (concat "pto: compiled " save-file) m))
                                                           pto-e2e-messages))))
      (pto-e2e--put 'compiled compiled))
    (pto-e2e--step "compiled")
    (pto-e2e--put 'ok t)
    (eglot-shutdown server nil pto-e2e-timeout)))

(defun pto-e2e--fail (message)
  (pto-e2e--put 'error message)
  (kill-emacs 1))

;; A whole-run watchdog too (a timer: it fires while any step waits for output).
(run-with-timer (* 6 pto-e2e-timeout) nil
                (lambda () (pto-e2e--fail (format "watchdog: the run took longer than %.0f s" (* 6 pto-e2e-timeout)))))

(condition-case err
    (progn
      ;; What an interactive Emacs does at startup before the init file: activate the installed
      ;; packages (Debian's elpa-eglot among them). Batch mode skips it.
      (package-activate-all)
      (load (or (getenv "PTO_E2E_INIT") (error "PTO_E2E_INIT not set")) nil t)
      (if (equal (getenv "PTO_E2E_SCENARIO") "compile") (pto-e2e--run-compile) (pto-e2e--run))
      (kill-emacs 0))
  (error (pto-e2e--fail (error-message-string err))))

;;; drive.el ends here
