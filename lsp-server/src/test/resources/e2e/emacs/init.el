(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(python-mode . ("java" "-jar" "/path/to/pto-tools.jar" "serve"))))

;; start it in every Python buffer (or run M-x eglot by hand)
(add-hook 'python-mode-hook #'eglot-ensure)

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((python-mode python-ts-mode)
                 . ("java" "-Xmx512m" "-Xms16m" "-XX:+UseSerialGC" "-XX:TieredStopAtLevel=1" "-XX:MinHeapFreeRatio=50" "-XX:MaxHeapFreeRatio=80" "-jar" "/path/to/pto-tools.jar" "serve"
                    :initializationOptions (:settings (:debounceMs 0))))))

(setq-default eglot-workspace-configuration
              '(:pto (:debounceMs 0)))
