package dev.ptotools.analyzer.project;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.facts.jit.JitGraph;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.analyzer.passes.JitSamplesPass;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;

/**
 * The Python modules of one project on disk, read as importing them would run them: a module's exports
 * are its top-level bindings folded in order (constants, tuples and lists of them, pl dtypes and enums,
 * what it imports from other modules of the project, star imports), the names a star import takes being
 * its {@code __all__} or else every public name. Imports resolve as running the importing file would: a
 * relative import from the file's package (its folder, and a parent per extra dot); an absolute one from
 * the file's folder first, then the project root, then the folder above the file's outermost package;
 * a module is {@code <name>.py} or a package's {@code __init__.py}. Only files under the project root are
 * read: pypto, torch and the standard library stay unknown, never an error.
 *
 * <p>Thread-safe (the CLI analyzes files in parallel); each module is read once per content. An import
 * cycle leaves the names the cycle has not bound yet unknown, as Python would fail on them; what was read
 * through one is not cached, as it depends on where the reading started.
 */
public final class ProjectModules {

	/**
	 * The exports of one module file, and why there are none when reading it failed; its IR and text, for
	 * the jit functions importers reach.
	 */
	private record Exports(Map<String, Object> values, List<String> all, String problem, long stamp, ModuleIR ir,
			String text, List<Program.Binding> bindings, Map<Path, Long> read) {

		Exports(Map<String, Object> values, List<String> all, String problem, long stamp) {
			this(values, all, problem, stamp, null, null, List.of(), Map.of());
		}

		Exports withRead(Map<Path, Long> stamps) {
			return new Exports(values, all, problem, stamp, ir, text, bindings, Map.copyOf(stamps));
		}
	}

	/**
	 * The text of a module file as an editor has it open, unsaved edits included (null when it is not
	 * open): it wins over the disk.
	 */
	@FunctionalInterface
	public interface OpenTexts {
		String textOf(Path file);

		OpenTexts NONE = f -> null;
	}

	private final Path root;
	private final Map<Path, Exports> cache = new ConcurrentHashMap<>();

	public ProjectModules(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	/**
	 * What importers see of a module, as a value: its folded exports, its __all__, why it gives nothing,
	 * and its whole text when it holds pypto functions (an importer may compile them). Equal before and
	 * after an edit that importers cannot see (a comment, a function body of a module without pypto), so
	 * an editor re-analyzes the modules that import it only when this changes.
	 */
	public Object fingerprint(Path module, OpenTexts open) {
		Path m = module.toAbsolutePath().normalize();
		Exports e = exports(m, new Reading(Set.of(), open));
		return java.util.Arrays.asList(e.values(), e.all(), e.problem(), e.ir() != null ? e.text() : null);
	}

	public Path root() {
		return root;
	}

	/** What the imports of {@code file} (a module of this project or not) see of the project's modules. */
	public ImportedModules forFile(Path file) {
		return forFile(file, OpenTexts.NONE);
	}

	/** The same, the editor's open texts winning over the disk. */
	public ImportedModules forFile(Path file, OpenTexts open) {
		Path f = file.toAbsolutePath().normalize();
		return new ForFile(f, new Reading(Set.of(f), open));
	}

	/**
	 * The modules being imported, outermost first (the analyzed file is running, so it counts): a module
	 * met again is an import cycle, whose names not bound yet are unknown. What was read through a cycle
	 * depends on where the reading started, so it is not kept for other readers.
	 */
	private static final class Reading {
		final Set<Path> modules;
		/** Every module file this reading resolved, shared by the readings it leads to. */
		final Set<Path> read;
		final OpenTexts open;
		boolean cycle;

		Reading(Set<Path> modules, OpenTexts open) {
			this(modules, ConcurrentHashMap.newKeySet(), open);
		}

		private Reading(Set<Path> modules, Set<Path> read, OpenTexts open) {
			this.modules = modules;
			this.read = read;
			this.open = open;
		}

		Reading and(Path module) {
			Set<Path> more = new HashSet<>(modules);
			more.add(module);
			return new Reading(more, read, open);
		}

		/** A module file's text (the editor's when it is open), or "" when it cannot be read. */
		String textOf(Path m) {
			if (m == null) {
				return "";
			}
			String opened = open.textOf(m);
			if (opened != null) {
				return opened;
			}
			try {
				return Files.readString(m);
			} catch (IOException | RuntimeException e) {
				return "";
			}
		}
	}

	/** The imports of one file, read while {@code reading} is under way. */
	private final class ForFile implements ImportedModules {
		private final Path file;
		private final Reading reading;

		ForFile(Path file, Reading reading) {
			this.file = file;
			this.reading = reading;
		}

		@Override
		public Set<Path> modulesRead() {
			return java.util.Collections.unmodifiableSet(reading.read);
		}

		@Override
		public Object value(String module, String name) {
			Path m = resolve(module);
			if (m != null) {
				Exports e = exports(m, reading);
				Object v = e.values().get(name);
				if (v != null) {
					return v;
				}
			}
			// from pkg import config: a submodule
			Path sub = resolve(ImportKinds.path(module, name));
			if (sub != null) {
				return new Values.Namespace(exports(sub, reading).values());
			}
			return Values.Unknown.INSTANCE;
		}

		@Override
		public Map<String, Object> star(String module) {
			Path m = resolve(module);
			if (m == null) {
				return Map.of();
			}
			Exports e = exports(m, reading);
			Map<String, Object> out = new LinkedHashMap<>();
			if (e.all() != null) {
				for (String n : e.all()) {
					out.put(n, e.values().getOrDefault(n, Values.Unknown.INSTANCE));
				}
				return out;
			}
			e.values().forEach((n, v) -> {
				if (!n.startsWith("_")) {
					out.put(n, v);
				}
			});
			return out;
		}

		@Override
		public Object module(String module) {
			Path m = resolve(module);
			return m == null ? Values.Unknown.INSTANCE : new Values.Namespace(exports(m, reading).values());
		}

		@Override
		public ImportedFunction jitFunction(String module, String name, SpanBases bases) {
			Path m = resolve(module);
			if (m == null) {
				return null;
			}
			Exports e = exports(m, reading);
			if (e.ir() == null) {
				return null;
			}
			int base = bases.baseOf(m, e.text().length());
			ModuleIR ir = shifted(m, e, base);
			ForFile theirs = new ForFile(m, reading.and(m));
			JitGraph.Names names = JitSamplesPass.names(ir, theirs, bases);
			for (Program p : ir.programs()) {
				if (p.style() != Program.Style.JIT) {
					continue;
				}
				Function f = p.function(name);
				if (f != null && names.kind(f) != null) {
					return new ImportedFunction(f, names.kind(f), names, e.values(), m, e.text(), base);
				}
			}
			// re-exported: the module imports it from another one
			ImportKinds.Source from = ImportKinds.fromImport(e.bindings(), name);
			return from == null ? null : theirs.jitFunction(from.module(), from.name(), bases);
		}

		@Override
		public Definition definition(String module, String name) {
			return definitionIn(resolve(module), name, 0);
		}

		@Override
		public Definition moduleFile(String module) {
			Path m = resolve(module);
			return m == null ? null : new Definition(m, reading.textOf(m), new Span(0, 0));
		}

		private Definition definitionIn(Path m, String name, int depth) {
			if (m == null || depth > 32) {
				return null;
			}
			Exports e = exports(m, reading);
			String text = e.text() != null ? e.text() : reading.textOf(m);
			ForFile theirs = new ForFile(m, reading);
			int defAt = TopLevelDefs.lastDef(text, name);
			Program.Binding binding = null;
			for (Program.Binding b : e.bindings()) {
				if (b.name().equals(name)) {
					binding = b;
				}
			}
			if (binding != null && binding.span().start() > defAt) {
				if (binding.value() instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.FROM)) {
					String path = o.kind().substring(ImportKinds.FROM.length());
					Definition further = theirs.definitionIn(theirs.resolve(ImportKinds.module(path)), ImportKinds.name(path),
							depth + 1);
					if (further == null) {
						further = theirs.submodule(ImportKinds.module(path), ImportKinds.name(path));
					}
					if (further != null) {
						return further;
					}
				} else if (binding.value() instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.MODULE)) {
					Definition mod = theirs.moduleFile(o.kind().substring(ImportKinds.MODULE.length()));
					if (mod != null) {
						return mod;
					}
				}
				return new Definition(m, text, TopLevelDefs.nameIn(text, name, binding.span()));
			}
			if (defAt >= 0) {
				return new Definition(m, text, new Span(defAt, defAt + name.length()));
			}
			// from .other import *: the last star import that gives the name
			List<Program.Binding> bindings = e.bindings();
			for (int i = bindings.size() - 1; i >= 0; i--) {
				Program.Binding b = bindings.get(i);
				if (b.name().equals(ImportKinds.STAR_NAME) && b.value() instanceof Expr.Opaque o) {
					String from = o.kind().substring(ImportKinds.STAR.length());
					if (theirs.star(from).containsKey(name) || TopLevelDefs.lastDef(reading.textOf(theirs.resolve(from)), name) >= 0) {
						Definition d = theirs.definitionIn(theirs.resolve(from), name, depth + 1);
						if (d != null) {
							return d;
						}
					}
				}
			}
			return null;
		}

		@Override
		public String importError(String module, String name) {
			Path m = resolve(module);
			if (m == null) {
				if (!module.startsWith(".") || namespaceOrCompiled(module)) {
					return null; // outside the project: perhaps installed
				}
				return "ModuleNotFoundError: No module named '" + dotted(module) + "'";
			}
			if (reading.modules.contains(m)) {
				return null; // the file importing itself, or a cycle: Python binds what ran so far
			}
			Exports e = exports(m, reading);
			if (e.problem() != null && e.problem().startsWith("has a syntax error")) {
				return "SyntaxError: " + root.relativize(m) + " " + e.problem();
			}
			if (name == null || e.text() == null || definitionIn(m, name, 0) != null || submodule(module, name) != null) {
				return null;
			}
			// a name its module may bind in ways not read here (in an if or try, by globals(), __getattr__)
			java.util.regex.Pattern word = java.util.regex.Pattern.compile("(?<![\\w])(" + java.util.regex.Pattern.quote(name)
					+ "|__getattr__|globals|setattr|exec)(?![\\w])", java.util.regex.Pattern.UNICODE_CHARACTER_CLASS);
			if (word.matcher(e.text()).find()) {
				return null;
			}
			return "ImportError: cannot import name '" + name + "' from '" + dotted(module) + "' (" + m + ")";
		}

		/** A relative module that is a folder without __init__.py (a namespace package) or a compiled module. */
		private boolean namespaceOrCompiled(String module) {
			Path p = relativeBase(module);
			if (p == null) {
				return true; // "from . import x" in a folder without __init__.py: a namespace package, or unknown
			}
			if (Files.isDirectory(p)) {
				return true;
			}
			Path dir = p.getParent();
			String stem = p.getFileName().toString() + ".";
			try (java.util.stream.Stream<Path> s = Files.list(dir)) {
				return s.anyMatch(f -> f.getFileName().toString().startsWith(stem) && !f.getFileName().toString().equals(stem + "py"));
			} catch (IOException | RuntimeException ex) {
				return false;
			}
		}

		/** The path a relative module names, without its suffix (pkg/missing for .missing), or null. */
		private Path relativeBase(String module) {
			Path base = packageOf(module);
			String rest = module.substring(leadingDots(module));
			if (base == null || rest.isEmpty()) {
				return null;
			}
			for (String part : rest.split("\\.")) {
				base = base.resolve(part);
			}
			return base;
		}

		/** The folder a relative module's dots name: the file's own for one dot, a parent per further dot. */
		private Path packageOf(String module) {
			Path base = file.getParent();
			for (int i = 1; i < leadingDots(module) && base != null; i++) {
				base = base.getParent();
			}
			return base;
		}

		/** A module as Python names it in its errors: a relative one made absolute from the file's package. */
		private String dotted(String module) {
			if (!module.startsWith(".")) {
				return module;
			}
			java.util.LinkedList<String> parts = new java.util.LinkedList<>();
			for (Path p = packageOf(module); p != null && Files.isRegularFile(p.resolve("__init__.py")); p = p.getParent()) {
				parts.addFirst(p.getFileName().toString());
			}
			String rest = module.substring(leadingDots(module));
			if (!rest.isEmpty()) {
				parts.add(rest);
			}
			return String.join(".", parts);
		}

		/** from pkg import config: the submodule's file, or null. */
		private Definition submodule(String module, String name) {
			return moduleFile(ImportKinds.path(module, name));
		}

		@Override
		public String problem(String module) {
			Path m = resolve(module);
			if (m == null) {
				return null;
			}
			return reading.modules.contains(m) ? "an import cycle through " + root.relativize(m) : exports(m, reading).problem();
		}

		/** The file of a module as written in this file's import, or null when it is not the project's. */
		private Path resolve(String module) {
			int dots = leadingDots(module);
			String rest = module.substring(dots);
			List<String> parts = rest.isEmpty() ? List.of() : List.of(rest.split("\\."));
			if (dots > 0) {
				Path base = packageOf(module);
				return base == null ? null : find(base, parts);
			}
			for (Path r : searchRoots()) {
				Path found = find(r, parts);
				if (found != null) {
					return found;
				}
			}
			return null;
		}

		private List<Path> searchRoots() {
			List<Path> out = new ArrayList<>();
			Path dir = file.getParent();
			if (dir != null) {
				out.add(dir);
			}
			out.add(root);
			// the folder above the outermost package holding the file: where `import pkg.x` is found
			Path p = dir;
			while (p != null && Files.isRegularFile(p.resolve("__init__.py")) && p.startsWith(root)) {
				p = p.getParent();
			}
			if (p != null && !out.contains(p)) {
				out.add(p);
			}
			return out;
		}

		private Path find(Path base, List<String> parts) {
			if (parts.isEmpty()) {
				Path init = base.resolve("__init__.py");
				return readable(init);
			}
			Path dir = base;
			for (int i = 0; i < parts.size() - 1; i++) {
				dir = dir.resolve(parts.get(i));
			}
			String last = parts.get(parts.size() - 1);
			Path py = readable(dir.resolve(last + ".py"));
			return py != null ? py : readable(dir.resolve(last).resolve("__init__.py"));
		}

		private Path readable(Path p) {
			Path n = p.normalize();
			if (n.startsWith(root) && (Files.isRegularFile(n) || reading.open.textOf(n) != null)) {
				reading.read.add(n);
				return n;
			}
			return null;
		}
	}

	/** The leading dots of a module as an import writes it: 0 for an absolute import. */
	private static int leadingDots(String module) {
		int dots = 0;
		while (dots < module.length() && module.charAt(dots) == '.') {
			dots++;
		}
		return dots;
	}

	/** A module's IR lowered with its spans moved by {@code base}, kept per module, content and base. */
	private final Map<String, ModuleIR> shiftedIrs = new ConcurrentHashMap<>();

	/**
	 * The module's IR with every span moved by {@code base}: its text parsed behind a comment line of
	 * {@code base} characters (one line more, which {@link ImportedFunction#line} takes off).
	 */
	private ModuleIR shifted(Path module, Exports e, int base) {
		String key = module + "\0" + e.stamp() + "\0" + base;
		return shiftedIrs.computeIfAbsent(key, k -> {
			if (shiftedIrs.size() > 256) {
				shiftedIrs.clear(); // a bound: an editor session moves bases as files grow
			}
			String padded = "#" + " ".repeat(base - 2) + "\n" + e.text();
			return ModuleLowering.of(PythonFrontEnd.get().parse(padded));
		});
	}

	/** The exports of a module file, read once per modification (unless read through an import cycle). */
	private Exports exports(Path module, Reading reading) {
		String opened = reading.open.textOf(module);
		long stamp;
		try {
			stamp = opened != null ? contentStamp(opened) : diskStamp(module);
		} catch (IOException e) {
			return new Exports(Map.of(), null, "cannot be read: " + e.getMessage(), 0);
		}
		if (reading.modules.contains(module)) {
			reading.cycle = true;
			return new Exports(Map.of(), null, "an import cycle through " + root.relativize(module), stamp);
		}
		Exports cached = cache.get(module);
		if (cached != null && cached.stamp() == stamp && unchanged(cached.read(), reading.open)) {
			reading.read.addAll(cached.read().keySet());
			return cached;
		}
		// the modules this one reads in turn, apart: their stamps say when its exports are out of date
		Reading inner = new Reading(reading.and(module).modules, reading.open);
		Exports e = read(module, opened, inner, stamp);
		reading.read.addAll(inner.read);
		if (inner.cycle) {
			reading.cycle = true;
		} else {
			Map<Path, Long> stamps = new java.util.HashMap<>();
			for (Path p : inner.read) {
				try {
					stamps.put(p, stampOf(p, reading.open));
				} catch (IOException ex) {
					stamps.put(p, 0L);
				}
			}
			e = e.withRead(stamps);
			cache.put(module, e);
		}
		return e;
	}

	/** The stamp of a module's text: of its open text, else of its file's modification time and size. */
	private static long stampOf(Path module, OpenTexts open) throws IOException {
		String opened = open.textOf(module);
		return opened != null ? contentStamp(opened) : diskStamp(module);
	}

	private static long diskStamp(Path module) throws IOException {
		return Files.getLastModifiedTime(module).toMillis() ^ Files.size(module);
	}

	/** Whether the modules a cached module read are as they were. */
	private static boolean unchanged(Map<Path, Long> read, OpenTexts open) {
		for (Map.Entry<Path, Long> r : read.entrySet()) {
			try {
				if (stampOf(r.getKey(), open) != r.getValue()) {
					return false;
				}
			} catch (IOException e) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A stamp of an open module's text (FNV-1a over its characters, marked apart from the disk's
	 * modification-time stamps by its top bit).
	 */
	private static long contentStamp(String text) {
		long h = 0xcbf29ce484222325L;
		for (int i = 0; i < text.length(); i++) {
			h = (h ^ text.charAt(i)) * 0x100000001b3L;
		}
		return h | Long.MIN_VALUE;
	}

	private Exports read(Path module, String opened, Reading reading, long stamp) {
		ParsedFile parsed;
		try {
			parsed = opened != null ? PythonFrontEnd.get().parse(opened) : PythonFrontEnd.get().parse(module);
		} catch (IOException | RuntimeException e) {
			return new Exports(Map.of(), null, "cannot be read: " + e.getMessage(), stamp);
		}
		if (!parsed.problems().isEmpty()) {
			return new Exports(Map.of(), null, "has a syntax error (line " + parsed.problems().get(0).line() + ")", stamp);
		}
		ModuleIR ir = ModuleLowering.of(parsed);
		Imports imports = ir.imports();
		ImportedModules theirs = new ForFile(module, reading);
		Map<String, Object> env = new LinkedHashMap<>();
		List<String> all = null;
		List<Program.Binding> bindings = ModuleLowering.topLevelBindings(parsed);
		for (Program.Binding b : bindings) {
			Object v = fold(b, env, imports, theirs);
			if (b.name().equals(ImportKinds.STAR_NAME)) {
				continue; // fold put the names
			}
			if (Values.known(v)) {
				env.put(b.name(), v);
			} else {
				env.remove(b.name());
			}
			if (b.name().equals("__all__")) {
				all = v instanceof List<?> l && l.stream().allMatch(x -> x instanceof String)
						? l.stream().map(String.class::cast).toList() : null;
			}
		}
		return new Exports(Map.copyOf(env), all, null, stamp, ir.importsPypto() ? ir : null, parsed.text(),
				List.copyOf(bindings), Map.of());
	}

	/** A binding's value in its module (a star import puts its names into env and gives Unknown). */
	public static Object fold(Program.Binding b, Map<String, Object> env, Imports imports, ImportedModules imported) {
		Expr value = b.value();
		if (value instanceof Expr.Opaque o) {
			String kind = o.kind();
			if (kind.startsWith(ImportKinds.STAR)) {
				imported.star(kind.substring(ImportKinds.STAR.length())).forEach((n, v) -> {
					if (Values.known(v)) {
						env.put(n, v);
					} else {
						env.remove(n);
					}
				});
				return Values.Unknown.INSTANCE;
			}
			if (kind.startsWith(ImportKinds.MODULE)) {
				return imported.module(kind.substring(ImportKinds.MODULE.length()));
			}
			if (kind.startsWith(ImportKinds.FROM)) {
				String path = kind.substring(ImportKinds.FROM.length());
				Object v = new ConstEval(env, imports).eval(value); // math.inf and the like
				return Values.known(v) ? v : imported.value(ImportKinds.module(path), ImportKinds.name(path));
			}
		}
		return new ConstEval(env, imports).eval(value);
	}
}
