/** The provider's rule for a tool's function name (OpenAIFunction.name in its API document). */
export const FUNCTION_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const MAX_FUNCTION_NAME_LENGTH = 64;

/** The query tool's function name: every character other than a letter or digit becomes '-'. */
export function toFunctionName(knowledgeBaseName: string): string {
  return knowledgeBaseName.replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * Why the provider would refuse the function name made from this knowledge-base name, or null. Checked
 * before anything is created, as the v2 base's 80-character name is.
 */
export function functionNameProblem(knowledgeBaseName: string): string | null {
  const name = toFunctionName(knowledgeBaseName);
  if (name.length > MAX_FUNCTION_NAME_LENGTH)
    return `The name is ${name.length} characters long; a query tool's name is at most ${MAX_FUNCTION_NAME_LENGTH}.`;
  if (!FUNCTION_NAME_PATTERN.test(name))
    return "A query tool's name may hold only letters, digits, '_' and '-'.";
  return null;
}
