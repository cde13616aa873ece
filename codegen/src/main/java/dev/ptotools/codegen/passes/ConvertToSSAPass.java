package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.SsaConverter;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's convert_to_ssa (ConvertToSSA): gives every definition its own Var (x__ssa_vN, i__idx_vN), loop
 * carries iter args and return vars (x__iter_vN, x__rv_vN), branch merges phis (x__phi_vN); explicit
 * init_values loops keep their iter arg and return var names, explicit pl.yield_ branches get x__rv_vN.
 * Each function is converted by a fresh {@link SsaConverter}, so version counters restart per function.
 * HOST-level SubWorkers (opaque Python bodies) are left alone, as pypto does. A variable first assigned in
 * a loop and read after it that nothing before the loop can seed is rejected, as pypto's SSA verifier does.
 */
public final class ConvertToSSAPass implements Pass {

	@Override
	public String name() {
		return "ConvertToSSA";
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of(IrProperty.NormalizedStmtStructure);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		for (Function f : program.functions()) {
			boolean hostSubWorker = f.role() == Role.SubWorker && f.isHostOrAbove();
			if (hostSubWorker) {
				out.add(f);
				continue;
			}
			SsaConverter converter = new SsaConverter();
			Function converted = converter.convert(f);
			out.add(converted);
			for (Var placeholder : converter.placeholders()) {
				// pypto's SSAVerify after this pass: the invented init value is defined nowhere.
				throw new CodegenException("Variable '" + placeholder.name() + "' used outside its defining scope",
						placeholder.span());
			}
			dev.ptotools.codegen.passes.util.SsaYieldCounts.check(converted);
		}
		return program.withFunctions(out);
	}
}
