/**
 * What sharing a listing sends (its page's address, its title, its price and place), as links:
 * WhatsApp and e-mail. One shape for the detail's Share menu and the listing page without
 * JavaScript.
 */
export interface ShareTarget {
  url: string;
  title: string;
  /** a line that goes with the link: the price and the place */
  text: string;
}

export function shareLinks(target: ShareTarget): { whatsapp: string; email: string } {
  const line = `${target.title} – ${target.text}`;
  return {
    whatsapp: `https://wa.me/?text=${encodeURIComponent(`${line} ${target.url}`)}`,
    email: `mailto:?subject=${encodeURIComponent(target.title)}&body=${encodeURIComponent(`${line}\n${target.url}`)}`,
  };
}
