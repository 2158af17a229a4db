// Packages a user installs only for what needs them (optional peer dependencies in package.json): a module that
// imports one statically is itself imported on use through loadOptionalPeer, which turns "cannot find package" into
// one line naming what needs it and the command that installs it.

/** An optional peer set: the packages (with the exact versions package.json names as peers) and what needs them. */
export interface OptionalPeer {
  /** Package name → version, as in package.json's peerDependencies. */
  packages: Readonly<Record<string, string>>;
  /** What needs them, for the message ("transformers: models"). */
  neededBy: string;
  /** Environment assignments the install command needs ("NODE_LLAMA_CPP_SKIP_DOWNLOAD=true"). */
  installEnv?: string;
}

/** Local inference (transformers: models) and the learned Kalahi metrics (BERTScore, BLEURT). */
export const TRANSFORMERS_PEER: OptionalPeer = {
  packages: { '@huggingface/transformers': '4.3.1', 'onnxruntime-node': '1.30.0' },
  neededBy: 'transformers: models and the BERTScore/BLEURT metrics',
  // onnxruntime-node's install script only downloads GPU extras (and fails offline); its CPU binaries ship in the package
  installEnv: 'ONNXRUNTIME_NODE_INSTALL=skip',
};

/** llama: models (GGUF files in process); its prebuilt binaries ship as npm packages, so its download step is skipped. */
export const LLAMA_PEER: OptionalPeer = {
  packages: { 'node-llama-cpp': '3.21.1' },
  neededBy: 'llama: models',
  installEnv: 'NODE_LLAMA_CPP_SKIP_DOWNLOAD=true',
};

/** The command that installs a peer set into the user's project. */
export function peerInstallCommand(peer: OptionalPeer): string {
  const packages = Object.entries(peer.packages).map(([name, version]) => `${name}@${version}`).join(' ');
  return `${peer.installEnv ? `${peer.installEnv} ` : ''}npm install --save-dev ${packages}`;
}

/** An optional peer is not installed: the message is one line with the install command. */
export class MissingPeerError extends Error {
  constructor(
    readonly missing: string,
    readonly peer: OptionalPeer,
    options?: { cause?: unknown },
  ) {
    const names = Object.keys(peer.packages);
    const what = names.length === 1 ? 'an optional dependency that is not installed; install it with' : `optional dependencies that are not installed (${missing} is missing); install them with`;
    super(`${peer.neededBy} need ${names.join(' and ')}, ${what}: ${peerInstallCommand(peer)}`, options);
    this.name = 'MissingPeerError';
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/** The peer package an import error says it could not find (Node's resolver or Vite's), if any. */
export function missingPeerPackage(error: unknown, peer: OptionalPeer): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const message = error.message;
  if (!/Cannot find (package|module)|Failed to (load|resolve)/u.test(message)) return undefined;
  return Object.keys(peer.packages).find((name) => new RegExp(`['"\`]${escapeRegExp(name)}(/[^'"\`]*)?['"\`]`, 'u').test(message));
}

/**
 * Runs `load` (a dynamic import of a module that imports the peer statically); when the peer is not installed,
 * throws MissingPeerError instead of the resolver's multi-line error. Other errors pass unchanged.
 */
export async function loadOptionalPeer<T>(peer: OptionalPeer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPeerPackage(error, peer);
    if (missing) throw new MissingPeerError(missing, peer, { cause: error });
    throw error;
  }
}
