'use strict';
// A `vscode` module for tests: enough of the API for the bundled extension and the real
// vscode-languageclient inside it to run against a fake server. Every call the tests look at is
// recorded on the returned object. Names it does not define resolve to inert stand-ins, since
// vscode-languageclient subclasses many vscode classes when it loads.

const path = require('node:path');
const fs = require('node:fs');

const PACKAGE_JSON = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

class Disposable {
  constructor(fn) {
    this._fn = fn;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose()));
  }
  dispose() {
    if (this._fn) {
      const fn = this._fn;
      this._fn = undefined;
      fn();
    }
  }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const entry = (e) => listener.call(thisArg, e);
      this.listeners.add(entry);
      const d = new Disposable(() => this.listeners.delete(entry));
      if (Array.isArray(disposables)) {
        disposables.push(d);
      }
      return d;
    };
  }
  fire(e) {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }
  dispose() {
    this.listeners.clear();
  }
}

function encodePath(p) {
  return p
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/%3A/gi, ':'))
    .join('/');
}

class Uri {
  constructor(scheme, authority, p, query, fragment) {
    this.scheme = scheme;
    this.authority = authority || '';
    this.path = p || '';
    this.query = query || '';
    this.fragment = fragment || '';
  }
  static parse(value) {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) {
      throw new Error(`not a URI: ${value}`);
    }
    return new Uri(m[1], m[2], decodeURIComponent(m[3]), m[4] !== undefined ? decodeURIComponent(m[4]) : '', m[5] !== undefined ? decodeURIComponent(m[5]) : '');
  }
  static file(p) {
    return new Uri('file', '', p.replace(/\\/g, '/'));
  }
  static from(c) {
    return new Uri(c.scheme, c.authority, c.path, c.query, c.fragment);
  }
  static joinPath(base, ...parts) {
    return base.with({ path: path.posix.join(base.path, ...parts) });
  }
  get fsPath() {
    return this.path;
  }
  with(change) {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString() {
    let s = `${this.scheme}:`;
    if (this.authority || this.scheme === 'file') {
      s += `//${this.authority}`;
    }
    s += encodePath(this.path);
    if (this.query) {
      s += `?${encodeURIComponent(this.query)}`;
    }
    if (this.fragment) {
      s += `#${encodeURIComponent(this.fragment)}`;
    }
    return s;
  }
  toJSON() {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
  }
}

class Selection extends Range {
  constructor(anchor, active) {
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
}

class ThemeColor {
  constructor(id) {
    this.id = id;
  }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this._emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }
  cancel() {
    this.token.isCancellationRequested = true;
    this._emitter.fire();
  }
  dispose() {}
}

class CancellationError extends Error {}

/** A TextDocument over a string. */
function createTextDocument(uri, text, languageId = 'python', version = 1) {
  const lines = () => doc._text.split(/\r?\n/);
  const doc = {
    uri,
    _text: text,
    languageId,
    version,
    isClosed: false,
    isDirty: false,
    isUntitled: uri.scheme === 'untitled',
    eol: 1,
    get fileName() {
      return uri.fsPath;
    },
    get lineCount() {
      return lines().length;
    },
    getText() {
      return doc._text;
    },
    lineAt(n) {
      const line = typeof n === 'number' ? n : n.line;
      const t = lines()[line] ?? '';
      return { lineNumber: line, text: t, isEmptyOrWhitespace: t.trim() === '' };
    },
    save: async () => true,
  };
  return doc;
}

function defaultsFromPackageJson() {
  const props = PACKAGE_JSON.contributes.configuration.properties;
  const values = {};
  for (const [key, spec] of Object.entries(props)) {
    values[key] = JSON.parse(JSON.stringify(spec.default));
  }
  return values;
}

function nest(flat, prefix) {
  // { 'pto.java.home': x } -> { java: { home: x } } for prefix 'pto', as VS Code presents sections.
  const result = {};
  for (const [key, value] of Object.entries(flat)) {
    if (!key.startsWith(`${prefix}.`)) {
      continue;
    }
    const parts = key.slice(prefix.length + 1).split('.');
    let cur = result;
    for (let i = 0; i < parts.length - 1; i++) {
      cur = cur[parts[i]] = cur[parts[i]] ?? {};
    }
    cur[parts[parts.length - 1]] = JSON.parse(JSON.stringify(value));
  }
  return result;
}

function createVscodeMock(options = {}) {
  const calls = {
    commandsExecuted: [],
    messages: [],
    progress: [],
    shownDocuments: [],
    contentProviders: new Map(),
    webviewPanels: [],
    quickPicks: [],
  };
  const settings = { ...defaultsFromPackageJson(), ...(options.settings ?? {}) };
  // What the user set (options.settings, setSetting, update): inspect() reports it as globalValue.
  const userSet = new Set(Object.keys(options.settings ?? {}));
  const registeredCommands = new Map();
  const events = {
    didChangeConfiguration: new EventEmitter(),
    didOpenTextDocument: new EventEmitter(),
    didCloseTextDocument: new EventEmitter(),
    didChangeTextDocument: new EventEmitter(),
    didSaveTextDocument: new EventEmitter(),
    willSaveTextDocument: new EventEmitter(),
    didChangeActiveTextEditor: new EventEmitter(),
    didChangeVisibleTextEditors: new EventEmitter(),
    didChangeWorkspaceFolders: new EventEmitter(),
    didChangeTabs: new EventEmitter(),
    didChangeTabGroups: new EventEmitter(),
  };
  // Answers to showXMessage, by message text pattern; unanswered messages resolve to undefined.
  const messageAnswers = [];
  const textDocuments = [];
  const statusBarItems = [];
  const outputChannels = [];

  function getConfiguration(section) {
    const prefix = section ? `${section}.` : '';
    const read = (key) => {
      const full = prefix + key;
      if (Object.prototype.hasOwnProperty.call(settings, full)) {
        return JSON.parse(JSON.stringify(settings[full]));
      }
      const nested = nest(settings, full);
      return Object.keys(nested).length > 0 ? nested : undefined;
    };
    return {
      get(key, defaultValue) {
        const v = read(key);
        return v === undefined ? defaultValue : v;
      },
      has(key) {
        return read(key) !== undefined;
      },
      inspect(key) {
        const full = prefix + key;
        const defaults = defaultsFromPackageJson();
        return {
          key: full,
          defaultValue: Object.prototype.hasOwnProperty.call(defaults, full) ? defaults[full] : undefined,
          globalValue: userSet.has(full) ? read(key) : undefined,
        };
      },
      async update(key, value) {
        setSetting(prefix + key, value);
      },
    };
  }

  function setSetting(key, value) {
    settings[key] = value;
    userSet.add(key);
    events.didChangeConfiguration.fire({
      affectsConfiguration: (s) => key === s || key.startsWith(`${s}.`) || s.startsWith(`${key}.`),
    });
  }

  function makeOutputChannel(name) {
    const channel = {
      name,
      lines: [],
      shown: 0,
      text() {
        return channel.lines.join('');
      },
      append(v) {
        channel.lines.push(v);
      },
      appendLine(v) {
        channel.lines.push(`${v}\n`);
      },
      replace(v) {
        channel.lines = [v];
      },
      clear() {
        channel.lines = [];
      },
      show() {
        channel.shown++;
      },
      hide() {},
      dispose() {},
    };
    outputChannels.push(channel);
    return channel;
  }

  function message(kind) {
    return async (text, ...rest) => {
      const items = rest.filter((r) => typeof r === 'string' || (r && typeof r.title === 'string'));
      const entry = { kind, text, items: items.map((i) => (typeof i === 'string' ? i : i.title)) };
      calls.messages.push(entry);
      const answer = messageAnswers.find((a) => a.pattern.test(text));
      return answer ? answer.choice : undefined;
    };
  }

  const window = {
    activeTextEditor: undefined,
    visibleTextEditors: [],
    tabGroups: { all: [], activeTabGroup: { tabs: [] }, onDidChangeTabs: events.didChangeTabs.event, onDidChangeTabGroups: events.didChangeTabGroups.event },
    onDidChangeActiveTextEditor: events.didChangeActiveTextEditor.event,
    onDidChangeVisibleTextEditors: events.didChangeVisibleTextEditors.event,
    onDidChangeTextEditorSelection: new EventEmitter().event,
    onDidChangeWindowState: new EventEmitter().event,
    createOutputChannel: makeOutputChannel,
    createStatusBarItem(idOrAlignment, alignmentOrPriority, maybePriority) {
      const item = {
        id: typeof idOrAlignment === 'string' ? idOrAlignment : undefined,
        alignment: typeof idOrAlignment === 'string' ? alignmentOrPriority : idOrAlignment,
        priority: typeof idOrAlignment === 'string' ? maybePriority : alignmentOrPriority,
        text: '',
        tooltip: undefined,
        command: undefined,
        backgroundColor: undefined,
        visible: false,
        show() {
          item.visible = true;
        },
        hide() {
          item.visible = false;
        },
        dispose() {
          item.visible = false;
        },
      };
      statusBarItems.push(item);
      return item;
    },
    showErrorMessage: message('error'),
    showWarningMessage: message('warning'),
    showInformationMessage: message('info'),
    async withProgress(opts, task) {
      const record = { options: opts, reports: [] };
      calls.progress.push(record);
      const source = new CancellationTokenSource();
      return task({ report: (r) => record.reports.push(r) }, source.token);
    },
    async showTextDocument(docOrUri, opts) {
      const doc = docOrUri && docOrUri.uri ? docOrUri : await workspace.openTextDocument(docOrUri);
      calls.shownDocuments.push({ document: doc, options: opts });
      return { document: doc };
    },
    createTextEditorDecorationType() {
      return new Disposable(() => {});
    },
    async showQuickPick(items, opts) {
      calls.quickPicks.push({ items, options: opts });
      return items[0];
    },
    /** A webview panel that records its html; tests post messages as its page would (panel.receive). */
    createWebviewPanel(viewType, title, showOptions, options) {
      const received = new EventEmitter();
      const disposed = new EventEmitter();
      const panel = {
        viewType,
        title,
        showOptions,
        options,
        htmlHistory: [],
        revealed: 0,
        disposed: false,
        webview: {
          options,
          cspSource: 'vscode-webview:',
          onDidReceiveMessage: received.event,
          async postMessage() {
            return true;
          },
          get html() {
            return panel.htmlHistory[panel.htmlHistory.length - 1] ?? '';
          },
          set html(value) {
            panel.htmlHistory.push(value);
          },
        },
        onDidDispose: disposed.event,
        reveal() {
          panel.revealed++;
        },
        dispose() {
          if (!panel.disposed) {
            panel.disposed = true;
            disposed.fire();
          }
        },
        receive(message) {
          received.fire(message);
        },
      };
      calls.webviewPanels.push(panel);
      return panel;
    },
  };

  const workspace = {
    workspaceFolders: options.workspaceFolders,
    textDocuments,
    isTrusted: true,
    name: 'mock',
    getConfiguration,
    onDidChangeConfiguration: events.didChangeConfiguration.event,
    onDidOpenTextDocument: events.didOpenTextDocument.event,
    onDidCloseTextDocument: events.didCloseTextDocument.event,
    onDidChangeTextDocument: events.didChangeTextDocument.event,
    onDidSaveTextDocument: events.didSaveTextDocument.event,
    onWillSaveTextDocument: events.willSaveTextDocument.event,
    onDidChangeWorkspaceFolders: events.didChangeWorkspaceFolders.event,
    onDidCreateFiles: new EventEmitter().event,
    onDidRenameFiles: new EventEmitter().event,
    onDidDeleteFiles: new EventEmitter().event,
    onWillCreateFiles: new EventEmitter().event,
    onWillRenameFiles: new EventEmitter().event,
    onWillDeleteFiles: new EventEmitter().event,
    onDidOpenNotebookDocument: new EventEmitter().event,
    onDidCloseNotebookDocument: new EventEmitter().event,
    onDidSaveNotebookDocument: new EventEmitter().event,
    onDidChangeNotebookDocument: new EventEmitter().event,
    notebookDocuments: [],
    registerTextDocumentContentProvider(scheme, provider) {
      calls.contentProviders.set(scheme, provider);
      return new Disposable(() => calls.contentProviders.delete(scheme));
    },
    async openTextDocument(uri) {
      const provider = calls.contentProviders.get(uri.scheme);
      if (provider) {
        const text = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token);
        return createTextDocument(uri, text, uri.path.endsWith('.py') ? 'python' : 'plaintext');
      }
      const found = textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (!found) {
        throw new Error(`no document ${uri}`);
      }
      return found;
    },
    createFileSystemWatcher() {
      const e = new EventEmitter();
      return { onDidCreate: e.event, onDidChange: e.event, onDidDelete: e.event, dispose() {} };
    },
    async applyEdit() {
      return true;
    },
    getWorkspaceFolder() {
      return undefined;
    },
  };

  const commands = {
    registerCommand(id, handler) {
      if (registeredCommands.has(id)) {
        throw new Error(`command '${id}' already exists`);
      }
      registeredCommands.set(id, handler);
      return new Disposable(() => registeredCommands.delete(id));
    },
    registerTextEditorCommand(id, handler) {
      return commands.registerCommand(id, handler);
    },
    async executeCommand(id, ...args) {
      calls.commandsExecuted.push({ id, args });
      const handler = registeredCommands.get(id);
      return handler ? handler(...args) : undefined;
    },
    async getCommands() {
      return [...registeredCommands.keys()];
    },
  };

  function matchScore(selector, doc) {
    if (Array.isArray(selector)) {
      return Math.max(0, ...selector.map((s) => matchScore(s, doc)));
    }
    if (typeof selector === 'string') {
      return selector === doc.languageId ? 10 : 0;
    }
    if (selector.language && selector.language !== doc.languageId) {
      return 0;
    }
    if (selector.scheme && selector.scheme !== doc.uri.scheme) {
      return 0;
    }
    if (selector.notebookType) {
      return 0;
    }
    return 10;
  }

  const diagnostics = new Map();
  const languages = {
    match: matchScore,
    createDiagnosticCollection(name) {
      const store = new Map();
      const collection = {
        name,
        set(uri, d) {
          if (Array.isArray(uri)) {
            uri.forEach(([u, ds]) => store.set(u.toString(), ds));
          } else {
            store.set(uri.toString(), d);
          }
        },
        get: (uri) => store.get(uri.toString()),
        delete: (uri) => store.delete(uri.toString()),
        clear: () => store.clear(),
        forEach: (cb) => store.forEach((v, k) => cb(Uri.parse(k), v, collection)),
        has: (uri) => store.has(uri.toString()),
        dispose: () => store.clear(),
      };
      diagnostics.set(name, collection);
      return collection;
    },
    async setTextDocumentLanguage(doc, languageId) {
      doc.languageId = languageId;
      return doc;
    },
    getDiagnostics: () => [],
  };
  // register*Provider: all inert.
  const languagesProxy = new Proxy(languages, {
    get(target, prop) {
      if (prop in target) {
        return target[prop];
      }
      if (typeof prop === 'string' && prop.startsWith('register')) {
        return () => new Disposable(() => {});
      }
      return undefined;
    },
  });

  const api = {
    version: '1.90.0',
    Uri,
    EventEmitter,
    Disposable,
    Position,
    Range,
    Selection,
    ThemeColor,
    CancellationTokenSource,
    CancellationError,
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    env: {
      appName: 'Visual Studio Code',
      appRoot: '/tmp',
      language: 'en',
      machineId: 'test',
      sessionId: 'test',
      uiKind: 1,
      async openExternal() {
        return true;
      },
    },
    window,
    workspace,
    commands,
    languages: languagesProxy,
    extensions: { getExtension: () => undefined, all: [] },
  };

  const stubClasses = new Map();
  const vscode = new Proxy(api, {
    get(target, prop) {
      if (prop in target) {
        return target[prop];
      }
      if (typeof prop === 'string' && /^[A-Z]/.test(prop)) {
        // Classes and enums the extension does not use but vscode-languageclient mentions.
        if (!stubClasses.has(prop)) {
          stubClasses.set(prop, { [prop]: class {} }[prop]);
        }
        return stubClasses.get(prop);
      }
      return undefined;
    },
  });

  /** Things tests drive and read. */
  const harness = {
    vscode,
    calls,
    settings,
    registeredCommands,
    statusBarItems,
    outputChannels,
    events,
    createTextDocument,
    setSetting,
    answerMessage(pattern, choice) {
      messageAnswers.push({ pattern, choice });
    },
    /** Opens a document as VS Code would (textDocuments + onDidOpenTextDocument). */
    openDocument(uri, text, languageId = 'python') {
      const doc = createTextDocument(uri, text, languageId);
      textDocuments.push(doc);
      events.didOpenTextDocument.fire(doc);
      return doc;
    },
    /** Replaces a document's text as an edit would (version + 1, onDidChangeTextDocument). */
    changeDocument(doc, text) {
      const old = doc._text;
      const lineCount = old.split(/\r?\n/).length;
      doc._text = text;
      doc.version++;
      doc.isDirty = true;
      events.didChangeTextDocument.fire({
        document: doc,
        contentChanges: [{ range: new Range(0, 0, lineCount, 0), rangeOffset: 0, rangeLength: old.length, text }],
        reason: undefined,
      });
    },
    /** Makes a document the active editor, with the cursor on a line. */
    setActiveEditor(doc, line = 0) {
      const pos = new Position(line, 0);
      window.activeTextEditor = doc ? { document: doc, selection: new Selection(pos, pos), selections: [new Selection(pos, pos)] } : undefined;
      window.visibleTextEditors = window.activeTextEditor ? [window.activeTextEditor] : [];
      events.didChangeActiveTextEditor.fire(window.activeTextEditor);
    },
  };
  return harness;
}

module.exports = { createVscodeMock, Uri };
