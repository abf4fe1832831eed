/** The query tool's function name: every character other than a letter or digit becomes '-'. */
export function toFunctionName(knowledgeBaseName: string): string {
  return knowledgeBaseName.replace(/[^A-Za-z0-9]/g, '-');
}
