/**
 * What every page of the host site gets in its head, added at build time so the pages stay plain
 * HTML: the language the visitor chose (?lang= or the saved one) applied before anything renders,
 * the favicon, and the widget bundle.
 */
import type { Plugin } from 'vite';

export const LANG_BOOT = `(function(){try{var q=new URLSearchParams(location.search).get('lang');var l=((q||localStorage.getItem('exp-lang')||'')+'').slice(0,2).toLowerCase();if(l==='es'||l==='en'){document.documentElement.lang=l}}catch(e){}})();`;

export function siteHead(): Plugin {
  return {
    name: 'exp-site-head',
    transformIndexHtml: {
      order: 'pre',
      handler() {
        return [
          { tag: 'script', children: LANG_BOOT, injectTo: 'head-prepend' },
          { tag: 'link', attrs: { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }, injectTo: 'head' },
          { tag: 'script', attrs: { type: 'module', src: '/widgets/exp-widgets.js', 'vite-ignore': '' }, injectTo: 'head' },
        ];
      },
    },
  };
}
