// Under redaction a provider's error carries its HTTP status and kind only: a server's message may quote the prompt
// (`400 … Your prompt was: …`), and an item's failure message reaches JUnit and the json and blob reporters' files.
// The full message can still go to the terminal (stderr, which those reporters do not record) off CI.
import { HttpStatusError } from './http.ts';
import type { LokalModel } from './open.ts';
import { ProviderError, type ModelProvider } from './types.ts';

/** The HTTP status an error reports: its own, or the `HTTP nnn` of an error made from one (a server that cannot score). */
function statusOf(error: ProviderError): number | undefined {
  if (error instanceof HttpStatusError) return error.status;
  const quoted = /\bHTTP ([1-5]\d\d)\b/u.exec(error.message);
  return quoted ? Number(quoted[1]) : undefined;
}

/** What a redacted run publishes of a provider error: provider, HTTP status and kind; no message, no cause. */
export function withheldError(error: ProviderError): ProviderError {
  const status = statusOf(error);
  return new ProviderError(error.provider, error.kind, `${status === undefined ? '' : `HTTP ${status}, `}${error.kind} error (its message is withheld: redaction is on, LOKAL_REDACT, and a server's message may quote the prompt)`);
}

/** The provider with its errors withheld; `show` gets each full message first (the terminal, off CI). */
export function withheldErrorsProvider(provider: ModelProvider, show?: (message: string) => void): ModelProvider {
  const withhold = (error: unknown): never => {
    if (!(error instanceof ProviderError)) throw error;
    show?.(error.message);
    throw withheldError(error);
  };
  return {
    describe: () => provider.describe(),
    generate: (requests) => provider.generate(requests).catch(withhold),
    scoreContinuations: (requests) => provider.scoreContinuations(requests).catch(withhold),
  };
}

/** The model with its provider's errors withheld; a replay model is returned as it is (no server speaks). */
export function withheldErrorsModel(model: LokalModel, show?: (message: string) => void): LokalModel {
  if (model.row.answersFromFile) return model;
  return { ...model, provider: withheldErrorsProvider(model.provider, show) };
}
