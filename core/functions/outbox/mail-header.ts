/** What a mail's headers take from what a visitor typed. */

/** A visitor's text as one line of a header or a subject: no line breaks, trimmed. */
export const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

/** A visitor's name and address as a mail's Reply-To: the name quoted, without quotes or backslashes of its own. */
export const replyTo = (name: string, email: string) => `"${oneLine(name).replace(/["\\]/g, '')}" <${email}>`;
