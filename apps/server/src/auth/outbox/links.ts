/** The links of a mail (the templates end with "Label: https://…", auth/mail.ts). */
export function mailLinks(text: string): { label: string; href: string }[] {
  return [...text.matchAll(/^([^\n:]{1,100}): (https?:\/\/\S+)$/gm)].map(([, label, href]) => ({
    label: label as string,
    href: href as string,
  }));
}
