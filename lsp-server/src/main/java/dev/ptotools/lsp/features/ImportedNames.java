package dev.ptotools.lsp.features;

import java.nio.file.Path;
import java.util.List;

import org.eclipse.lsp4j.Location;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.project.ImportKinds;
import dev.ptotools.analyzer.project.ImportedModules;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.Lsp;

/**
 * A name the module imports from another module of its project, under the cursor: where it is defined
 * there ({@link ImportedModules#definition}), for go-to-definition and hover. Covers a use of the name
 * ({@code ROWS}, a call {@code rms_norm(...)}), a module alias's attribute ({@code cfg.ROWS} after
 * {@code import pkg.config as cfg}), a name bound by a star import, and the names and module of the import
 * statement itself. A parameter or local of the enclosing function that shadows the name is not it.
 */
final class ImportedNames {

	private ImportedNames() {
	}

	/** The definition of the imported name at offset, or null. */
	static ImportedModules.Definition at(Analysis a, String text, int offset) {
		if (!a.facts().has(Keys.IMPORTED_MODULES)) {
			return null;
		}
		ImportedModules imported = a.facts().get(Keys.IMPORTED_MODULES);
		int ws = offset;
		while (ws > 0 && isIdentifierPart(text.charAt(ws - 1))) {
			ws--;
		}
		int we = offset;
		while (we < text.length() && isIdentifierPart(text.charAt(we))) {
			we++;
		}
		if (ws == we) {
			return null;
		}
		String word = text.substring(ws, we);
		List<Program.Binding> bindings = topLevelBindings(a);
		// the import statement under the cursor: its names, else its module
		for (Program.Binding b : bindings) {
			if (b.span().contains(offset) && b.value() instanceof Expr.Opaque o) {
				String kind = o.kind();
				if (kind.startsWith(ImportKinds.FROM)) {
					String path = kind.substring(ImportKinds.FROM.length());
					if (word.equals(b.name()) || word.equals(ImportKinds.name(path))) {
						return definition(imported, path);
					}
				}
			}
		}
		for (Program.Binding b : bindings) {
			if (b.span().contains(offset) && b.value() instanceof Expr.Opaque o && o.kind().startsWith("import")) {
				String kind = o.kind();
				String module = kind.startsWith(ImportKinds.FROM) ? ImportKinds.module(kind.substring(ImportKinds.FROM.length()))
						: kind.substring(kind.indexOf(':') + 1);
				return imported.moduleFile(module);
			}
		}
		Function enclosing = Locator.function(a, offset);
		if (ws > 0 && text.charAt(ws - 1) == '.') {
			// cfg.ROWS: the attribute of a module alias
			int qe = ws - 1;
			int qs = qe;
			while (qs > 0 && isIdentifierPart(text.charAt(qs - 1))) {
				qs--;
			}
			String qualifier = text.substring(qs, qe);
			if (qs == qe || (qs > 0 && text.charAt(qs - 1) == '.') || Hovers.assignedIn(enclosing, qualifier)) {
				return null;
			}
			Program.Binding b = last(bindings, qualifier, offset);
			if (b != null && b.value() instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.MODULE)) {
				return imported.definition(o.kind().substring(ImportKinds.MODULE.length()), word);
			}
			return null;
		}
		if (Hovers.assignedIn(enclosing, word)) {
			return null;
		}
		Program.Binding b = last(bindings, word, offset);
		if (b != null) {
			if (b.value() instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.FROM)) {
				return definition(imported, o.kind().substring(ImportKinds.FROM.length()));
			}
			if (b.value() instanceof Expr.Opaque o && o.kind().startsWith(ImportKinds.MODULE)) {
				return imported.moduleFile(o.kind().substring(ImportKinds.MODULE.length()));
			}
			return null; // bound here
		}
		// a name a star import binds: the last star import that defines it
		for (int i = bindings.size() - 1; i >= 0; i--) {
			Program.Binding s = bindings.get(i);
			if (s.name().equals(ImportKinds.STAR_NAME) && s.value() instanceof Expr.Opaque o) {
				ImportedModules.Definition d = imported.definition(o.kind().substring(ImportKinds.STAR.length()), word);
				if (d != null) {
					return d;
				}
			}
		}
		return null;
	}

	/**
	 * The module's top-level bindings: from its syntax tree when the analysis kept it, else those its
	 * programs saw (each program the bindings made before it; a jit program all of them), which is what
	 * the editor's retained analyses have.
	 */
	private static List<Program.Binding> topLevelBindings(Analysis a) {
		if (a.file().hasSyntaxTree()) {
			return ModuleLowering.topLevelBindings(a.file());
		}
		return a.module().programBindings();
	}

	/** from M import N: N's definition in M, else M's submodule N. */
	private static ImportedModules.Definition definition(ImportedModules imported, String path) {
		ImportedModules.Definition d = imported.definition(ImportKinds.module(path), ImportKinds.name(path));
		return d != null ? d : imported.moduleFile(path);
	}

	/** The binding of name that a use at offset sees: the last one before it, else the last one of all. */
	private static Program.Binding last(List<Program.Binding> bindings, String name, int offset) {
		Program.Binding before = null;
		Program.Binding any = null;
		for (Program.Binding b : bindings) {
			if (b.name().equals(name)) {
				any = b;
				if (b.span().start() < offset) {
					before = b;
				}
			}
		}
		return before != null ? before : any;
	}

	static Location location(ImportedModules.Definition d) {
		LineMap lines = LineMap.of(d.text());
		return new Location(d.file().toUri().toString(), Lsp.range(lines, d.span()));
	}

	/** "config.py:3", relative to the folder of the file that imports it when it is below that folder. */
	static String where(ImportedModules.Definition d, Path from) {
		Path f = d.file();
		Path dir = from == null ? null : from.toAbsolutePath().getParent();
		String shown = dir != null && f.startsWith(dir) ? dir.relativize(f).toString() : f.toString();
		return shown + ":" + LineMap.of(d.text()).line(d.span().start());
	}

	private static boolean isIdentifierPart(char c) {
		return Character.isLetterOrDigit(c) || c == '_';
	}
}
