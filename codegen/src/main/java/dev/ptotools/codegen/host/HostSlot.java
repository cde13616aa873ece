package dev.ptotools.codegen.host;

import dev.ptotools.analyzer.ir.Expr;

/**
 * One buffer of a comm domain as host_orch.py allocates it: a {@code pld.alloc_window_buffer} of the
 * source, or the signal buffer pypto's SynthesizeAllReduceSignals adds for an allreduce without one.
 *
 * @param name the buffer name ({@code CommBufferSpec(name=...)})
 * @param size the logical byte size expression, or null for a synthesized one (then {@code sizeText})
 * @param sizeText the rendered size of a synthesized buffer
 * @param at source offset, for unwrapping the names the size uses and for slot order
 */
record HostSlot(String name, Expr size, String sizeText, int at) {
}
