// The main-content extractor: static HTML in, PageDocument out (no JavaScript is run).
// Order matters: metadata and the page's links are read from the whole tree first, then
// boilerplate is pruned, the main subtree is chosen, and only that subtree becomes blocks.
// The one thing to know: extractPage never throws; on any failure it returns the metadata it
// has (or an empty document) so one broken page cannot fail a whole run.
import type { PageDocument, PageLink } from '../document.ts';
import { type Element, findFirst, isElement, isText, normalizeSpace, parseHtml, removeNodes, walk } from './dom.ts';
import { type PageMetadata, readMetadata } from './metadata.ts';
import { blocksToText, BlockWriter, SKIP_TAGS } from './blocks.ts';
import { disclaimerBoxes, isWidgetArea, pruneBoilerplate, screenReaderCopies, textLength, weakBoilerplate } from './boilerplate.ts';
import { linkBoxes, listDescriptions, measure, selectMain, spaceAwareLength } from './main-content.ts';
import { articleExtras, isArticleBox, pageCommentThreads } from './article-extras.ts';
import { readLayout } from './layout.ts';
import {
  ARTICLE_ITEMTYPE,
  FORUM_ITEMTYPE,
  LD_FALLBACK_WORDS,
  LD_MIN_WORDS,
  LINK_SHARE,
  PRODUCT_ITEMTYPE,
  PRODUCT_WEAK_SHARE,
  UNRELATED_MAX_WORDS,
  WEAK_SHARE,
} from './rules.ts';
import { declaresArticle, isCollectionPage, isForumPage, isProductPage } from '../page-kind.ts';
import { bareUrlSources, findReferenceLists, type ReferenceEntry, referenceEntries, referencesAfter, sourceBoxesWithin } from './references.ts';
import { collectLinks } from './links.ts';
import { isArticleAtProductUrl, isShoppingStory, removeOtherProducts, removeProductExtras, shopPageReviews } from './commerce.ts';
import { postChrome } from './forum.ts';
import { dedupe, dedupeLines, dropJunkLines, dropRatingSummaries, isPlaceholder, undouble } from './junk-lines.ts';
import { countWords, jsonLdBody, unrelatedToTitle } from './fallbacks.ts';
import { adoptStrays, placeStreamedSegments } from './tree-repair.ts';

export { renderContentView } from '../content-view.ts';

function emptyDocument(url: string, meta?: PageMetadata): PageDocument {
  return {
    url,
    title: meta?.title ?? null,
    description: meta?.description ?? null,
    language: meta?.language ?? null,
    canonicalUrl: meta?.canonicalUrl ?? null,
    metaRobots: meta?.metaRobots ?? null,
    openGraph: meta?.openGraph ?? {},
    jsonLd: meta?.jsonLd ?? [],
    jsonLdErrors: meta?.jsonLdErrors ?? 0,
    dates: meta?.dates ?? { published: null, modified: null, found: [] },
    headings: [],
    blocks: [],
    links: { main: [], all: [] },
    bodyText: '',
    wordCount: 0,
    ...(meta ? { page: meta.signals } : {}),
  };
}

export function extractPage(html: string, url: string): PageDocument {
  let meta: PageMetadata | undefined;
  try {
    // htmlparser2 reads `<![CDATA[` in HTML as a section that swallows everything up to `]]>`;
    // browsers treat it as a bogus comment, so a stray marker must not hide the whole page.
    // (replace() copies the whole string even when nothing matches: look first.)
    const source = typeof html !== 'string' ? '' : html.includes('<![CDATA[') || html.includes(']]>') ? html.replace(/<!\[CDATA\[|\]\]>/g, '') : html;
    const dom = parseHtml(source);
    meta = readMetadata(dom, url);
    const layout = readLayout(dom);
    const all = collectLinks(dom, meta.baseUrl);
    let body: Element | null = findFirst(dom, 'body');
    if (!body) {
      body = findFirst(dom, 'html');
      if (!body) {
        // A fragment without <html>/<body>: wrap it so the rest sees one root element.
        const wrapper = parseHtml('<body></body>').children.find(isElement) as Element | undefined;
        if (!wrapper) return { ...emptyDocument(url, meta), links: { main: [], all } };
        wrapper.children = dom.children;
        for (const c of wrapper.children) c.parent = wrapper;
        body = wrapper;
      }
    }
    adoptStrays(dom, body);
    placeStreamedSegments(body);
    let bodyTextLength = 0;
    let productItems = 0;
    let forumItems = 0;
    let articleItems = 0;
    walk(body, (n) => {
      if (isText(n)) bodyTextLength += spaceAwareLength(n.data);
      else if (isElement(n)) {
        if (SKIP_TAGS.has(n.name)) return false;
        const t = n.attribs.itemtype;
        if (t !== undefined) {
          if (PRODUCT_ITEMTYPE.test(t)) productItems++;
          else if (FORUM_ITEMTYPE.test(t)) forumItems++;
          else if (ARTICLE_ITEMTYPE.test(t)) articleItems++;
        }
      }
      return true;
    });
    // Reference and source lists are looked for before pruning: a list of links at the end of an
    // article is what pruning takes for a link box, yet it is the article's evidence.
    const references = findReferenceLists(body);
    // A page whose microdata holds one schema.org Product is that product's page (several are
    // a list's cards).
    const product = (isProductPage(meta, url) && !isShoppingStory(meta, url) && !isArticleAtProductUrl(meta, url)) || productItems === 1;
    pruneBoilerplate(body, { bodyTextLength, titleBlocks: !declaresArticle(meta, articleItems) && !isForumPage(meta, url, forumItems), product });
    const collection = isCollectionPage(meta);
    // Shoppers' reviews and other products' carousels go before the main box is chosen.
    if (product) removeProductExtras(body, bodyTextLength);
    // shop-page-reviews (commerce.ts): on a category or shop front, shoppers' rated reviews go too.
    else if (!declaresArticle(meta, articleItems) && !isForumPage(meta, url, forumItems)) removeNodes(shopPageReviews(body, layout));
    const forum = !product && isForumPage(meta, url, forumItems);
    // Readers' comments under an article can hold more prose than the article: they go before
    // the main box is chosen (on a forum the replies are the content).
    if (!product && !collection && !forum) removeNodes(pageCommentThreads(body, textLength(body)));
    const stats = measure(body);
    const article = !product && !collection && !forum && declaresArticle(meta, articleItems);
    const roots = selectMain(body, stats, { keepHeading: product, forum });
    // A category's or archive's own description above the grid that won (not on a forum).
    if (!forum) {
      const intro = listDescriptions(body, roots, stats);
      if (intro.length) roots.unshift(...intro);
    }
    for (const r of roots) {
      // Rails and lists of other products' cards go from a product page's main box.
      if (product) removeOtherProducts(r, stats, collection);
      // Beside an article: the readers' comments, rails of other stories and sign-up or paywall
      // teasers (not on a forum, where the replies are the content, nor on a list of items).
      // `gone`: text of r removed by a rule that the shares after it must not count (stats are
      // of the tree before any removal).
      let gone = 0;
      if (!product && !collection && !forum) {
        const { comments, rails, teasers, storyLinks, credits, authorBoxes, headerLines, captions } = articleExtras(r, stats, {
          article: article || isArticleBox(r),
          description: meta.description,
        });
        const extras = [...comments, ...rails, ...teasers, ...storyLinks, ...credits, ...authorBoxes, ...headerLines, ...captions];
        for (const box of extras) gone += stats.textOf(box);
        removeNodes(extras);
      }
      // Sidebars and related rails inside the main subtree go when they are a minority of it;
      // when they are most of it, they are the page (a listing or collection).
      // A product page's own extras (reviews, shipping terms, banners) are not looked for on a
      // page that says it is a collection: there the banner holds the collection's intro.
      const weak = weakBoilerplate(r, { product: product && !collection });
      const weakText = weak.reduce((n, el) => n + stats.textOf(el), 0);
      // On a product page reviews and other products' carousels go unless they are nearly all
      // of it: the description they sit beside is short.
      if (weak.length && weakText < stats.textOf(r) * (product ? PRODUCT_WEAK_SHARE : WEAK_SHARE)) removeNodes(weak);
      else if (weak.some(isWidgetArea)) {
        // A sidebar of widgets (a CMS's widget area) is never the page, however short the page.
        const areas = weak.filter(isWidgetArea);
        gone += areas.reduce((n, el) => n + stats.textOf(el), 0);
        removeNodes(areas);
      }
      // disclaimer-fine-print (rules.ts DISCLAIMER_BOX): the fine print goes whatever its share.
      const fine = disclaimerBoxes(r);
      for (const box of fine) gone += stats.textOf(box);
      removeNodes(fine);
      // Same rule for boxes of bare links (menus, tag lists) left inside the main subtree.
      const boxes = linkBoxes(r, stats);
      const boxText = boxes.reduce((n, el) => n + stats.textOf(el), 0);
      if (boxes.length && boxText < (stats.textOf(r) - gone) * LINK_SHARE) removeNodes(boxes);
    }
    // A reply's quote of an earlier post repeats that post (the thread already holds it);
    // signatures and poster details repeat on every post.
    if (forum) removeNodes(postChrome(roots));
    // Kept beside the main content, not in it: the main text (and the content view, and WCXB's
    // ground truth) ends with the article, while Content Intelligence reads the sources.
    // A title just before such a list ("Sources" above a bare list) goes with it, or the main
    // text would end on a heading over nothing.
    const referenceItems: ReferenceEntry[] = [];
    if (!product && !collection && !forum) {
      for (const list of referencesAfter(references.lists, references.order, roots)) {
        const entries = referenceEntries([list], meta.baseUrl, url);
        for (const e of entries) referenceItems.push(e);
        if (entries.length && list.headingElement) removeNodes([list.headingElement]);
      }
      for (const list of sourceBoxesWithin(references.lists, roots)) {
        const entries = referenceEntries([list], meta.baseUrl, url);
        if (!entries.length) continue;
        for (const e of entries) referenceItems.push(e);
        removeNodes([list.box]);
      }
    }
    // screen-reader-copy (rules.ts): on a shop's pages, a price or label written again for
    // screen readers beside the one drawn.
    if (product || collection) removeNodes(screenReaderCopies(roots));
    const writer = new BlockWriter();
    for (const r of roots) writer.write(r);
    const deduped = dedupe(writer.blocks.map(undouble));
    // Filler is never the page's copy, but the score reports it: kept beside the main text.
    const placeholders = deduped.filter(isPlaceholder).map((b) => (b.kind === 'paragraph' || b.kind === 'heading' ? b.text : ''));
    let blocks = dropJunkLines(
      deduped.filter((b) => !isPlaceholder(b)),
      { forum, article },
    );
    if (product && !collection) blocks = dropRatingSummaries(dedupeLines(blocks));
    if (!product && !collection && !forum) {
      const sources = bareUrlSources(blocks);
      if (sources) {
        for (const u of sources.urls) referenceItems.push({ text: u, href: u, heading: sources.heading });
        blocks = blocks.slice(0, sources.start);
      }
    }
    const mainLinks: PageLink[] = [];
    // A loop, not push(...links): spreading tens of thousands of arguments overflows the stack.
    for (const r of roots) for (const l of collectLinks(r, meta.baseUrl)) mainLinks.push(l);
    // A page whose text is all drawn by script may still carry it in its structured data (a
    // forum post's text, a product's description): better that than next to nothing.
    let bodyText = blocksToText(blocks);
    let words = countWords(bodyText);
    if (words < LD_FALLBACK_WORDS) {
      const ld = jsonLdBody(meta);
      if (ld && countWords(ld) >= Math.max(LD_MIN_WORDS, 2 * words)) {
        // Some sites put the body's HTML there: its tags are line breaks, not words.
        for (const line of ld.replace(/<\/?[a-z][^>]*>/gi, '\n').split(/\r?\n/)) {
          const text = normalizeSpace(line);
          if (text) blocks.push({ kind: 'paragraph', text });
        }
        bodyText = blocksToText(blocks);
        words = countWords(bodyText);
      }
    }
    // A page drawn by script can leave a few words of chrome as its "main content" (the title of
    // a language menu). A text that short which shares no word with the page's title, the site's
    // own name aside, is not this page's content: the static HTML has none, and saying so is
    // truer (an AI crawler that runs no script sees none either).
    if (words > 0 && words <= UNRELATED_MAX_WORDS && unrelatedToTitle(bodyText, meta.title, url)) {
      blocks.length = 0;
      mainLinks.length = 0;
      bodyText = '';
      words = 0;
    }
    const headings: PageDocument['headings'] = [];
    for (const b of blocks) if (b.kind === 'heading') headings.push({ level: b.level, text: b.text });
    return {
      ...emptyDocument(url, meta),
      headings,
      blocks,
      links: { main: mainLinks, all },
      bodyText,
      wordCount: words,
      page: { ...meta.signals, references: referenceItems, placeholders, layout },
    };
  } catch {
    return emptyDocument(url, meta);
  }
}
