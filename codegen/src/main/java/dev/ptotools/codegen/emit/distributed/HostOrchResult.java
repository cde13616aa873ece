package dev.ptotools.codegen.emit.distributed;

/** The host orchestration Python (host_orch.py without our marker line). */
public record HostOrchResult(String code) {
}
