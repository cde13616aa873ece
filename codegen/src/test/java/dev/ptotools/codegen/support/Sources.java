package dev.ptotools.codegen.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.Compiler;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Generation;
import dev.ptotools.codegen.RuntimeHeader;

/** Test helpers: compile DSL text in memory and pick files out of the result. */
public final class Sources {

	/**
	 * Stand-ins of pypto's builtin collective templates (this repository carries none of pypto's files):
	 * every placeholder pypto fills, in three files named as pypto's.
	 */
	public static final dev.ptotools.codegen.BuiltinTemplates STAND_IN_TEMPLATES = new dev.ptotools.codegen.BuiltinTemplates() {
		@Override
		public java.util.SortedMap<String, String> templates(String templatePackage) {
			java.util.SortedMap<String, String> t = new java.util.TreeMap<>();
			t.put("entry.cpp.in", "// {{entry}} ({{variant}}) for {{runtime}} from {{template_package}}\n");
			t.put("kernel.cpp.in", "// {{kernel_name}}\n");
			t.put("kernel_config.py.in", "# {{variant}}\n");
			return t;
		}

		@Override
		public String whereLooked() {
			return "the tests' stand-ins";
		}
	};

	/** pypto's current output: the plain pto_orchestration_api.h include. */
	public static final CompileOptions PLAIN = CompileOptions.DEFAULT.withHeader(RuntimeHeader.PTO_ORCHESTRATION_API)
			.withBuiltinTemplates(STAND_IN_TEMPLATES);

	public static final String HEADER = "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n";

	private Sources() {
	}

	public static String resource(String name) {
		try (InputStream in = Sources.class.getResourceAsStream("/" + name)) {
			assertNotNull(in, "missing test resource " + name);
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		} catch (IOException e) {
			throw new AssertionError(e);
		}
	}

	/** Every file the tests generated in this JVM, for GeneratedSyntaxTest. */
	public static final java.util.Queue<GeneratedFile> GENERATED = new java.util.concurrent.ConcurrentLinkedQueue<>();

	public static Generation generate(String source, CompileOptions options) {
		Generation g = Compiler.generate("test.py", source, options);
		GENERATED.addAll(g.files());
		return g;
	}

	/** Generates and fails on any problem. */
	public static Generation ok(String source) {
		return ok(source, PLAIN);
	}

	public static Generation ok(String source, CompileOptions options) {
		Generation g = generate(source, options);
		assertFalse(g.hasErrors(), () -> "unexpected problems: " + g.problems());
		return g;
	}

	/** The only file whose path ends with the suffix. */
	public static String file(Generation g, String suffix) {
		List<GeneratedFile> hits = g.files().stream().filter(f -> f.path().endsWith(suffix)).toList();
		if (hits.size() != 1) {
			throw new AssertionError("expected one file ending " + suffix + ", got "
					+ g.files().stream().map(GeneratedFile::path).toList());
		}
		return hits.get(0).content();
	}

	/** The orchestration code of a generated .cpp: the text after the file's comment header. */
	public static String code(String cppFile) {
		int at = cppFile.indexOf("\n\n");
		return cppFile.substring(at + 2);
	}

	/** Chip orchestration code of a one-program source: the single .cpp's code. */
	public static String cpp(String source) {
		return code(file(ok(source), ".cpp"));
	}

	/** A program around an orchestration body: the DSL header plus the given class text. */
	public static String program(String classText) {
		return HEADER + classText;
	}
}
