package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.passes.util.AutoNames;
import dev.ptotools.codegen.support.CodegenException;

class AutoNamesTest {

	@Test
	void buildsBaseQualifierRoleVersion() {
		assertEquals("x__ssa_v0", AutoNames.build("x", "ssa", 0));
		assertEquals("out__l0_rv_v3", AutoNames.build("out", "l0", "rv", 3));
		assertEquals("t__tmp_v12", AutoNames.build("t", "", "tmp", 12));
		assertEquals("a__b", AutoNames.build("a", "b", null, null));
		assertEquals("plain", AutoNames.build("plain", "", null, null));
		assertThrows(CodegenException.class, () -> AutoNames.build("a__b", "ssa", 0));
	}

	@Test
	void parsesFromTheEnd() {
		AutoNames.Parsed p = AutoNames.parse("out__l0_rv_v3");
		assertEquals("out", p.base());
		assertEquals("l0", p.qualifier());
		assertEquals("rv", p.role());
		assertEquals(3, p.version());
		AutoNames.Parsed loopUnderscore = AutoNames.parse("___idx_v0");
		assertEquals("", loopUnderscore.base());
		assertEquals("idx", loopUnderscore.role());
		AutoNames.Parsed qualifierOnly = AutoNames.parse("a__b");
		assertEquals("b", qualifierOnly.qualifier());
		assertNull(qualifierOnly.role());
		assertFalse(AutoNames.parse("y_inline0").hasAutoSuffix());
		assertEquals("acc", AutoNames.baseName("acc__rv_v2"));
	}

	@Test
	void versionsRebaseExistingSuffixes() {
		assertEquals("x__ssa_v0", AutoNames.versioned("x__ssa_v7", "ssa", 0));
		assertEquals("out__l0_ssa_v0", AutoNames.versioned("out__l0_rv_v3", "ssa", 0));
		assertEquals("y_inline0__ssa_v0", AutoNames.versioned("y_inline0", "ssa", 0));
		assertEquals("break__ssa_v1", AutoNames.versioned("break__tmp_v0", "ssa", 1));
		assertEquals("___idx_v0", AutoNames.versioned("_", "idx", 0));
		assertThrows(CodegenException.class, () -> AutoNames.versioned("a__b", "ssa", 0));
	}

	@Test
	void reservesUniqueNames() {
		Set<String> used = new HashSet<>(Set.of("x", "x_1"));
		assertEquals("x_2", AutoNames.reserveUnique("x", used));
		assertEquals("y", AutoNames.reserveUnique("y", used));
		assertEquals("x__l1_ssa_v0", AutoNames.addQualifier("x__ssa_v0", "l1"));
		assertEquals("x__l1", AutoNames.addQualifier("x", "l1"));
	}
}
