/** This process's own peak resident memory in MiB (VmHWM where /proc has it, else getrusage's maxrss). */
export function peakRssMiB(): number;
