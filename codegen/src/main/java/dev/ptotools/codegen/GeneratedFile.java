package dev.ptotools.codegen;

/** One generated file: its path relative to the output folder ("MyProgram/kernel_config.py") and text. */
public record GeneratedFile(String path, String content) {
}
