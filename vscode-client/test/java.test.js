'use strict';
// Finding Java and the server command line, through the bundled extension.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { BUNDLE, VERSION_OUTPUTS, makeJdk, readLog, startExtension, tempDir, waitFor } = require('./helpers/harness');
const { createVscodeMock } = require('./helpers/vscode-mock');
const { readZip, writeZip } = require('./helpers/zip');

function loadBundleAlone() {
  // The pure helpers need no activation; a mock is still required for the bundle to load.
  const Module = require('node:module');
  const mock = createVscodeMock();
  const original = Module._load;
  Module._load = function load(request, ...rest) {
    return request === 'vscode' ? mock.vscode : original.call(this, request, ...rest);
  };
  try {
    delete require.cache[require.resolve(BUNDLE)];
    return require(BUNDLE);
  } finally {
    Module._load = original;
  }
}

test('parseJavaVersion reads OpenJDK, Temurin, Oracle, Zulu, Semeru and early-access formats', () => {
  const { parseJavaVersion } = loadBundleAlone();
  const cases = [
    [VERSION_OUTPUTS.openjdk17, 17, '17.0.15'],
    [VERSION_OUTPUTS.temurin21, 21, '21.0.4'],
    [VERSION_OUTPUTS.oracle8, 8, '1.8.0_381'],
    [VERSION_OUTPUTS.openjdk11, 11, '11.0.22'],
    ['openjdk version "1.8.0_402"\nOpenJDK Runtime Environment (Temurin)(build 1.8.0_402-b06)\n', 8, '1.8.0_402'],
    ['openjdk version "21" 2023-09-19\nOpenJDK Runtime Environment (build 21+35-2513)\n', 21, '21'],
    ['openjdk version "25-ea" 2025-09-16\n', 25, '25-ea'],
    ['java version "22.0.1" 2024-04-16\nJava(TM) SE Runtime Environment Oracle GraalVM 22.0.1+8.1\n', 22, '22.0.1'],
    ['openjdk version "17.0.8.1" 2023-08-24\nIBM Semeru Runtime Open Edition 17.0.8.1 (build 17.0.8.1+1)\n', 17, '17.0.8.1'],
    ['Picked up JAVA_TOOL_OPTIONS: -Dfile.encoding=UTF-8\nopenjdk version "17.0.2" 2022-01-18\n', 17, '17.0.2'],
    ['openjdk version "1.7.0_80"\n', 7, '1.7.0_80'],
    ['java version 9\n', 9, '9'],
  ];
  for (const [output, major, version] of cases) {
    assert.deepEqual(parseJavaVersion(output), { major, version }, output);
  }
  assert.equal(parseJavaVersion('bash: java: command not found'), undefined);
  assert.equal(parseJavaVersion(''), undefined);
});

test('parseJavaVersion reads the real java -version of every JDK on this machine', (t) => {
  const { parseJavaVersion } = loadBundleAlone();
  const homes = fs.existsSync('/usr/lib/jvm')
    ? fs.readdirSync('/usr/lib/jvm').map((d) => path.join('/usr/lib/jvm', d)).filter((d) => fs.existsSync(path.join(d, 'bin', 'java')))
    : [];
  if (homes.length === 0) {
    t.skip('no JDK under /usr/lib/jvm');
    return;
  }
  for (const home of new Set(homes.map((h) => fs.realpathSync(h)))) {
    const r = spawnSync(path.join(home, 'bin', 'java'), ['-version'], { encoding: 'utf8' });
    const parsed = parseJavaVersion(`${r.stderr}\n${r.stdout}`);
    assert.ok(parsed && parsed.major >= 8, `${home}: ${r.stderr}`);
    t.diagnostic(`${home}: Java ${parsed.major} (${parsed.version})`);
  }
});

const LAMBDA_FORMS = '-Djava.lang.invoke.MethodHandle.COMPILE_THRESHOLD=30';

function expectedArgv(ext, jvmOptions = ['-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80']) {
  return [...jvmOptions, LAMBDA_FORMS, '-jar', path.join(ext.context.extensionPath, 'server', 'pto-tools.jar'), 'serve'];
}

async function argvOf(logFile) {
  const entry = await waitFor(`server start logged in ${logFile}`, () => readLog(logFile).find((e) => e.type === 'argv'));
  return entry.argv;
}

/** Three JDKs: one for the setting, one for JAVA_HOME, one on PATH, each logging to its own file. */
function threeJdks() {
  const dir = tempDir('pto-jdks-');
  const jdk = (name, version) => makeJdk(path.join(dir, name), version, path.join(dir, `${name}.log`));
  return {
    dir,
    setting: jdk('setting-jdk', VERSION_OUTPUTS.openjdk17),
    javaHome: jdk('java-home-jdk', VERSION_OUTPUTS.temurin21),
    onPath: jdk('path-jdk', VERSION_OUTPUTS.openjdk17),
    log: (name) => path.join(dir, `${name}.log`),
  };
}

test('pto.java.home wins over JAVA_HOME and PATH; the command is java [jvmOptions] -jar <jar> serve', async () => {
  const jdks = threeJdks();
  const ext = await startExtension({
    settings: { 'pto.java.home': jdks.setting.home },
    env: { JAVA_HOME: jdks.javaHome.home, PATH: jdks.onPath.bin },
  });
  try {
    assert.deepEqual(await argvOf(jdks.log('setting-jdk')), expectedArgv(ext));
    assert.equal(readLog(jdks.log('java-home-jdk')).length, 0);
    assert.equal(readLog(jdks.log('path-jdk')).length, 0);
    await waitFor('running state', () => ext.statusItem().text.includes('PTO') && !ext.statusItem().text.includes('spin'));
    assert.match(ext.output().text(), /using Java 17\.0\.15 from pto\.java\.home/);
  } finally {
    await ext.stop();
  }
});

test('a java.home setting may name the bin folder or the java executable itself', async () => {
  const jdks = threeJdks();
  for (const value of [jdks.setting.bin, jdks.setting.java]) {
    fs.rmSync(jdks.log('setting-jdk'), { force: true });
    const ext = await startExtension({ settings: { 'pto.java.home': value }, env: { PATH: jdks.onPath.bin } });
    try {
      assert.deepEqual(await argvOf(jdks.log('setting-jdk')), expectedArgv(ext));
    } finally {
      await ext.stop();
    }
  }
});

test('JAVA_HOME is used when the setting is empty', async () => {
  const jdks = threeJdks();
  const ext = await startExtension({ env: { JAVA_HOME: jdks.javaHome.home, PATH: jdks.onPath.bin } });
  try {
    assert.deepEqual(await argvOf(jdks.log('java-home-jdk')), expectedArgv(ext));
    assert.equal(readLog(jdks.log('path-jdk')).length, 0);
    assert.match(ext.output().text(), /using Java 21\.0\.4 from JAVA_HOME/);
  } finally {
    await ext.stop();
  }
});

test('java on PATH is used when neither the setting nor JAVA_HOME is set', async () => {
  const jdks = threeJdks();
  const other = path.join(jdks.dir, 'no-java-here');
  fs.mkdirSync(other);
  const ext = await startExtension({ env: { PATH: [other, jdks.onPath.bin].join(path.delimiter) } });
  try {
    assert.deepEqual(await argvOf(jdks.log('path-jdk')), expectedArgv(ext));
    assert.match(ext.output().text(), new RegExp(`using Java 17\\.0\\.15 from PATH: ${jdks.onPath.java.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  } finally {
    await ext.stop();
  }
});

test('a too-old JAVA_HOME is passed over for a Java 17 on PATH, and the output says why', async () => {
  const dir = tempDir('pto-jdks-');
  const old = makeJdk(path.join(dir, 'jdk11'), VERSION_OUTPUTS.openjdk11, path.join(dir, 'jdk11.log'));
  const good = makeJdk(path.join(dir, 'jdk17'), VERSION_OUTPUTS.openjdk17, path.join(dir, 'jdk17.log'));
  const ext = await startExtension({ env: { JAVA_HOME: old.home, PATH: good.bin } });
  try {
    assert.deepEqual(await argvOf(path.join(dir, 'jdk17.log')), expectedArgv(ext));
    assert.match(ext.output().text(), /not using JAVA_HOME \(.*jdk11\): it is Java 11 \(11\.0\.22\); Java 17 or newer is needed/);
    assert.equal(ext.mock.calls.messages.filter((m) => m.kind === 'error').length, 0);
  } finally {
    await ext.stop();
  }
});

test('pto.jvmOptions go before -jar', async () => {
  const jdks = threeJdks();
  const jvmOptions = ['-Xmx2g', '-Dpto.log=debug', '-XX:+UseG1GC'];
  const ext = await startExtension({ settings: { 'pto.java.home': jdks.setting.home, 'pto.jvmOptions': jvmOptions } });
  try {
    assert.deepEqual(await argvOf(jdks.log('setting-jdk')), expectedArgv(ext, jvmOptions));
  } finally {
    await ext.stop();
  }
});

test('class data sharing: the archive of this jar and java is named, then mapped once it exists; PTO_CDS=0 and the user\'s -Xshare leave it out', async () => {
  const jdks = threeJdks();
  const cache = path.join(jdks.dir, 'cache');
  const startsOf = () => readLog(jdks.log('setting-jdk')).filter((e) => e.type === 'argv').map((e) => e.argv);
  const ext = await startExtension({ settings: { 'pto.java.home': jdks.setting.home }, env: { PTO_CDS: '', XDG_CACHE_HOME: cache } });
  let archive;
  try {
    const argv = await argvOf(jdks.log('setting-jdk'));
    const named = argv.filter((a) => a.startsWith('-Dpto.cds.archive='));
    assert.equal(named.length, 1, argv.join(' '));
    archive = named[0].slice('-Dpto.cds.archive='.length);
    assert.match(archive, /pto-[0-9a-f]{16}\.jsa$/);
    assert.equal(path.dirname(archive), path.join(cache, 'pto-tools', 'cds'));
    assert.ok(!argv.some((a) => a.startsWith('-XX:SharedArchiveFile=') || a.startsWith('-Xshare')), 'no archive yet: the JVM keeps its own');
    assert.deepEqual(argv.slice(-3), ['-jar', path.join(ext.context.extensionPath, 'server', 'pto-tools.jar'), 'serve']);

    // once the server has made it, the next start maps it
    fs.mkdirSync(path.dirname(archive), { recursive: true });
    fs.writeFileSync(archive, 'an archive');
    await ext.mock.vscode.commands.executeCommand('pto.restartServer');
    await waitFor('second server start', () => startsOf().length === 2);
    const again = startsOf()[1];
    for (const option of [`-Dpto.cds.archive=${archive}`, `-XX:SharedArchiveFile=${archive}`, '-Xshare:auto', '-XX:+VerifySharedSpaces', '-Xlog:cds*=off']) {
      assert.ok(again.includes(option), `${option} in ${again.join(' ')}`);
    }
    assert.ok(again.indexOf('-Xshare:auto') < again.indexOf('-jar'));
  } finally {
    await ext.stop();
  }

  for (const [env, settings] of [
    [{ PTO_CDS: '0', XDG_CACHE_HOME: cache }, {}],
    [{ PTO_CDS: 'off', XDG_CACHE_HOME: cache }, {}],
    [{ PTO_CDS: '', XDG_CACHE_HOME: cache }, { 'pto.jvmOptions': ['-Xshare:off'] }],
  ]) {
    const other = threeJdks();
    const e = await startExtension({ settings: { 'pto.java.home': other.setting.home, ...settings }, env });
    try {
      const argv = await argvOf(other.log('setting-jdk'));
      assert.ok(!argv.some((a) => /^(-Dpto\.cds\.archive=|-XX:SharedArchiveFile=|-Xshare:auto)/.test(a)), `${JSON.stringify(env)}: ${argv.join(' ')}`);
    } finally {
      await e.stop();
    }
  }
});

test('a Java 8 in pto.java.home is an error naming the version, with a button that opens the setting', async () => {
  const dir = tempDir('pto-jdks-');
  const java8 = makeJdk(path.join(dir, 'jdk8'), VERSION_OUTPUTS.oracle8, path.join(dir, 'jdk8.log'));
  const java17 = makeJdk(path.join(dir, 'jdk17'), VERSION_OUTPUTS.openjdk17, path.join(dir, 'jdk17.log'));
  const ext = await startExtension({
    settings: { 'pto.java.home': java8.home },
    // A good Java elsewhere is not silently used instead of the one the setting names.
    env: { JAVA_HOME: java17.home, PATH: java17.bin },
    answers: [[/Java 17 or newer/, 'Open Settings']],
  });
  try {
    const error = await waitFor('error message', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(error.text, /PTO tools needs Java 17 or newer/);
    assert.match(error.text, /too old/);
    assert.match(error.text, /pto\.java\.home \(.*jdk8\) cannot be used: it is Java 8 \(1\.8\.0_381\)/);
    assert.deepEqual(error.items, ['Open Settings', 'Show Output']);
    await waitFor('settings opened', () =>
      ext.mock.calls.commandsExecuted.find((c) => c.id === 'workbench.action.openSettings' && c.args[0] === 'pto.java.home'),
    );
    assert.equal(readLog(path.join(dir, 'jdk8.log')).length, 0, 'the server is not started on Java 8');
    assert.equal(readLog(path.join(dir, 'jdk17.log')).length, 0);
    const item = ext.statusItem();
    assert.equal(item.visible, true);
    assert.match(item.text, /\$\(error\) PTO/);
    assert.match(item.tooltip, /Java 8/);
    assert.equal(item.backgroundColor.id, 'statusBarItem.errorBackground');
  } finally {
    await ext.stop();
  }
});

test('no Java at all is an error that lists where it looked; Show Output opens the log', async () => {
  const ext = await startExtension({ env: {}, answers: [[/Java 17 or newer/, 'Show Output']] });
  try {
    const error = await waitFor('error message', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(error.text, /PTO tools needs Java 17 or newer to run its language server, and none was found/);
    assert.match(error.text, /JAVA_HOME it is not set/);
    assert.match(error.text, /PATH has no java/);
    assert.match(error.text, /set "pto\.java\.home"/);
    assert.deepEqual(error.items, ['Open Settings', 'Show Output']);
    await waitFor('output shown', () => ext.output().shown > 0);
  } finally {
    await ext.stop();
  }
});

test('a pto.java.home without bin/java is reported as such', async () => {
  const dir = tempDir('pto-jdks-');
  const ext = await startExtension({ settings: { 'pto.java.home': dir } });
  try {
    const error = await waitFor('error message', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(error.text, /pto\.java\.home \(.*\) cannot be used: there is no bin\/java in it/);
  } finally {
    await ext.stop();
  }
});

test('a java that prints no version is rejected with what it printed', async () => {
  const dir = tempDir('pto-jdks-');
  const odd = makeJdk(path.join(dir, 'odd'), 'Error: could not open `lib/jvm.cfg`\n', path.join(dir, 'odd.log'));
  const ext = await startExtension({ env: { PATH: odd.bin } });
  try {
    const error = await waitFor('error message', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(error.text, /could not read a version from .* \(it printed "Error: could not open `lib\/jvm.cfg`"\)/);
  } finally {
    await ext.stop();
  }
});

test('a missing server jar is an error that asks to reinstall', async () => {
  const jdks = threeJdks();
  const ext = await startExtension({ jar: false, env: { PATH: jdks.onPath.bin } });
  try {
    const error = await waitFor('error message', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(error.text, /language server is missing from the extension \(.*pto-tools\.jar\)\. Reinstall the extension\./);
    assert.deepEqual(error.items, ['Show Output']);
    assert.equal(readLog(jdks.log('path-jdk')).length, 0);
  } finally {
    await ext.stop();
  }
});

test('a server jar that is not a zip is reported as damaged before java runs', async () => {
  const jdks = threeJdks();
  const ext = await startExtension({ jar: 'an HTML error page saved as a jar', env: { PATH: jdks.onPath.bin } });
  try {
    const error = await waitFor('error message', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(error.text, /language server in the extension is damaged: it is not a jar file \(.*pto-tools\.jar\)\. Reinstall the extension\./);
    assert.equal(readLog(jdks.log('path-jdk')).length, 0);
  } finally {
    await ext.stop();
  }
});

test('pto.server.path runs that jar instead of the bundled one; a missing one is an error naming the setting', async () => {
  const jdks = threeJdks();
  const custom = path.join(jdks.dir, 'checkout', 'pto-tools.jar');
  fs.mkdirSync(path.dirname(custom), { recursive: true });
  fs.writeFileSync(custom, 'PK\x03\x04 a jar built from a checkout');
  const ext = await startExtension({ settings: { 'pto.server.path': custom }, env: { PATH: jdks.onPath.bin } });
  try {
    assert.deepEqual(await argvOf(jdks.log('path-jdk')), ['-Xmx512m', '-Xms16m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:MinHeapFreeRatio=50', '-XX:MaxHeapFreeRatio=80', LAMBDA_FORMS, '-jar', custom, 'serve']);
  } finally {
    await ext.stop();
  }
  const missing = path.join(jdks.dir, 'nowhere', 'pto-tools.jar');
  const broken = await startExtension({
    settings: { 'pto.server.path': missing },
    env: { PATH: jdks.onPath.bin },
    answers: [[/pto\.server\.path/, 'Open Server Path']],
  });
  try {
    const error = await waitFor('error message', () => broken.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.equal(error.text, `The server jar of "pto.server.path" does not exist (${missing}).`);
    assert.deepEqual(error.items, ['Open Server Path', 'Show Output']);
    await waitFor('the setting opened', () =>
      broken.mock.calls.commandsExecuted.find((c) => c.id === 'workbench.action.openSettings' && c.args[0] === 'pto.server.path'),
    );
  } finally {
    await broken.stop();
  }
});

test('findJava on the real machine finds a Java 17+ on PATH', async (t) => {
  const { findJava } = loadBundleAlone();
  const result = await findJava({ javaHomeSetting: '', env: { PATH: process.env.PATH } });
  if (!result.ok) {
    t.skip(`no Java 17+ on this machine's PATH: ${result.message}`);
    return;
  }
  assert.ok(result.runtime.major >= 17);
  assert.equal(result.runtime.source, 'PATH');
  t.diagnostic(`PATH java: ${result.runtime.executable} ${result.runtime.version}`);
});

/** The machine's own Java 17+, for the tests that run a real JVM; undefined when there is none. */
async function realJava() {
  const { findJava } = loadBundleAlone();
  const result = await findJava({ javaHomeSetting: '', env: { PATH: process.env.PATH } });
  return result.ok ? result.runtime : undefined;
}

test('a real JVM that cannot open the jar: one error, with what java printed', async (t) => {
  const java = await realJava();
  if (!java) {
    t.skip('no Java 17+ on PATH');
    return;
  }
  // The harness's dummy jar only starts like a zip: java says "Invalid or corrupt jarfile" and exits.
  const ext = await startExtension({ env: { PATH: path.dirname(java.executable) }, allowUnhandledRejections: true });
  try {
    await waitFor('failed state', () => /error/.test(ext.statusItem().text));
    await new Promise((r) => setTimeout(r, 300));
    const errors = ext.mock.calls.messages.filter((m) => m.kind === 'error');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0].text, /The PTO language server stopped while starting\. It printed: Error: Invalid or corrupt jarfile .*pto-tools\.jar/);
    assert.deepEqual(errors[0].items, ['Show Output']);
    assert.match(ext.statusItem().tooltip, /Invalid or corrupt jarfile/);
  } finally {
    await ext.stop();
  }
});

test('the test zip writer makes a jar the zip reader (and java) accept', () => {
  const zip = readZip(writeZip({ 'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\r\n\r\n', 'a/b.txt': 'hello' }));
  assert.deepEqual(zip.entries.map((e) => e.name), ['META-INF/MANIFEST.MF', 'a/b.txt']);
  assert.equal(zip.read('a/b.txt').toString(), 'hello');
});

test('a real JVM rejecting a pto.jvmOptions entry: the error names it and opens the setting', async (t) => {
  const java = await realJava();
  if (!java) {
    t.skip('no Java 17+ on PATH');
    return;
  }
  // A well-formed jar, so that the launcher gets as far as creating the JVM.
  const jar = writeZip({ 'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\r\nMain-Class: NoSuchMain\r\n\r\n' });
  const ext = await startExtension({
    jar,
    settings: { 'pto.jvmOptions': ['-XX:+NoSuchPtoOption'] },
    env: { PATH: path.dirname(java.executable) },
    answers: [[/stopped while starting/, 'Open JVM Options']],
    allowUnhandledRejections: true,
  });
  try {
    const error = await waitFor('error', () => ext.mock.calls.messages.find((m) => m.kind === 'error'));
    assert.match(error.text, /It printed: Unrecognized VM option 'NoSuchPtoOption'/);
    assert.deepEqual(error.items, ['Open JVM Options', 'Show Output']);
    await waitFor('settings opened', () =>
      ext.mock.calls.commandsExecuted.find((c) => c.id === 'workbench.action.openSettings' && c.args[0] === 'pto.jvmOptions'),
    );
    assert.match(ext.output().text(), /Could not create the Java Virtual Machine/);
  } finally {
    await ext.stop();
  }
});
