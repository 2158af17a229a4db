// Decoding of byte-level BPE tokens (GPT-2, Qwen2, Llama 3): each token's text spells bytes with GPT-2's printable
// stand-ins (bytes_to_unicode in OpenAI's gpt-2 encoder.py), so a token sequence decodes to exactly the bytes it
// encodes, as Hugging Face's ByteLevel decoder does (no spaces cleaned up around punctuation).

/** Stand-in character code → byte: printable Latin-1 bytes stand for themselves, the others for 256, 257, … in order. */
function standInBytes(): Map<number, number> {
  const map = new Map<number, number>();
  let next = 256;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
    map.set(printable ? byte : next++, byte);
  }
  return map;
}

/** Token ids → text for one vocabulary: `skip` ids (special tokens) are left out; `plain` ids are literal text. */
export class ByteLevelText {
  // Each token's bytes are worked out on first use: a 151,936-token vocabulary took 0.3 s of load to map whole.
  private readonly bytes = new Map<number, Uint8Array | undefined>();
  private readonly standIns = standInBytes();
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly tokens: readonly string[],
    private readonly options: { skip: (id: number) => boolean; plain: (id: number) => boolean },
  ) {}

  private bytesOf(id: number): Uint8Array | undefined {
    if (this.bytes.has(id)) return this.bytes.get(id);
    const text = this.tokens[id];
    let out: Uint8Array | undefined;
    if (text === undefined || this.options.skip(id)) out = undefined;
    else if (this.options.plain(id)) out = this.encoder.encode(text);
    else {
      out = new Uint8Array(text.length);
      let n = 0;
      for (const ch of text) {
        const byte = this.standIns.get(ch.codePointAt(0)!);
        // not a stand-in (a vocabulary that is not byte-level after all): keep the character's own UTF-8 bytes
        if (byte === undefined) {
          out = this.encoder.encode(text);
          n = out.length;
          break;
        }
        out[n++] = byte;
      }
      out = out.subarray(0, n);
    }
    this.bytes.set(id, out);
    return out;
  }

  /** The text of the ids; invalid UTF-8 (a character cut by the budget) becomes U+FFFD, as Hugging Face decodes it. */
  decode(ids: readonly number[]): string {
    const parts: Uint8Array[] = [];
    let length = 0;
    for (const id of ids) {
      const b = this.bytesOf(id);
      if (b) (parts.push(b), (length += b.length));
    }
    const all = new Uint8Array(length);
    let at = 0;
    for (const p of parts) (all.set(p, at), (at += p.length));
    return this.decoder.decode(all);
  }
}
