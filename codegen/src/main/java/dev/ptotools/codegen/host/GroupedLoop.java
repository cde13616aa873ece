package dev.ptotools.codegen.host;

import dev.ptotools.analyzer.ir.Stmt;

/**
 * A rank loop the analyzer marked grouped: every rank's TaskArgs are collected in
 * {@code _group_args_<number>} and submitted once after the loop.
 *
 * @param groupId the analyzer's stable id ("host_orch/rank_loop_0")
 */
public record GroupedLoop(Stmt.For loop, int number, String callee, String groupId) {
}
