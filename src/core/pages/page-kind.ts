// The page's kind, one module for both places that decide it. Two decisions, each with its own
// rule, over the same declared signals (URL path, og:type, schema.org types):
//
// - The extractor's rule (isProductPage, isCollectionPage, isForumPage, declaresArticle) runs on
//   the page's metadata before any main text exists, and answers yes/no questions that decide
//   which pruning applies: on a product page other products' cards go, on a forum the replies
//   are the content, beside an article readers' comments go. It trusts declarations only (og:type,
//   JSON-LD and microdata types, shop and forum URL shapes), because a wrong "yes" removes text.
// - Content Intelligence's rule (detectPageType) runs on the extracted PageDocument and picks one
//   of eight types by votes from schema.org types, URL, the main text and the page's layout; the
//   type with the most points wins, article when nothing votes. The type decides which score
//   rules apply (a shop's product page is not told to add an author byline).
//
// What differs, and why they stay two rules: the extractor's URL shapes are narrower (a product
// is /product/x, /dp/x, /itm/x, /ip/x, /pdp/x or /p/…digit; a forum also by a host or folder named
// "forum"), its JSON-LD reading matches @type in the first 200 nodes, and it has no home, listing,
// documentation or service kind; detectPageType's URL votes are wider (/p/, /item/, localized
// shop words), it reads every JSON-LD node, and text and layout can outvote a declaration. Made
// into one rule, either the extraction of the WCXB pages or the content labels would change.
import type { PageDocument } from './document.ts';
import { countMatches } from '../../lib/text-match.ts';
import type { PageMetadata } from './extract/metadata.ts';
import { ARTICLE_TYPES, COLLECTION_TYPES, FORUM_NAME, FORUM_TYPES, FORUM_URL, PRODUCT_GROUP_OG, PRODUCT_TYPES, PRODUCT_URL } from './extract/rules.ts';
import { jsonLdTypes } from './json-ld.ts';
import { typeEvidence } from './page-type-evidence.ts';
import { learnedChoice, strongestEvidence, typeProbabilities } from './page-type-model.ts';

/** listing = search results and archives; collection = a shop's category of products. */
export type PageType = 'article' | 'product' | 'collection' | 'listing' | 'documentation' | 'service' | 'forum' | 'home';

const DOCS_HOST = /^(?:docs?|developer|devdocs|wiki|help|support|kb|manual)\./;
const DOCS_TITLE = /\b(?:documentation|docs|user(?:['’]s)? guide|manual|api reference|knowledge base)\b/i;
const SELLING_HEADING =
  /\b(?:why (?:choose|work with|us)|our (?:services|team|process|approach|clients|customers|work|expertise|solutions)|how it works|benefits|what (?:our )?(?:clients|customers) (?:say|are saying)|testimonials|pricing|plans|get started|contact us|request a|free (?:quote|trial|consultation)|who we (?:are|serve)|what we do|industries we serve|case studies|success stories|trusted by|faqs?|frequently asked|who should (?:attend|enrol+|apply)|course (?:overview|details|curriculum)|program(?:me)? (?:overview|details)|what you(?:['’]ll| will) learn|admission requirements|tuition(?: and fees)?)\b/i;
// schema.org's kinds of local business (HVACBusiness, LegalService, Dentist, MovingCompany, …).
const LOCAL_BUSINESS =
  /^(?:\w+business|\w+service|\w+contractor|\w+agency|attorney|dentist|physician|plumber|electrician|locksmith|movingcompany|realestateagent|lawfirm)$/;
// A title that names a list of things that are not for sale: jobs, courses, homes for sale, a
// schedule, a topic's news coverage ("Remote Software Engineer Jobs", "Data Science Courses",
// "Sparks, NV Homes for Sale", "NFL Schedule", "Vehicle rental News and Reporting Coverage").
// Only the title's first part (before " | " or " - "), and not an editor's ranking ("Best …",
// "Top 10 …", "How to find …").
const LIST_TITLE =
  /\b(?:jobs|vacancies|courses|homes for sale|houses for sale|schedule|news(?:,| and| &) (?:reporting|coverage|videos)(?: [\w\s&,]{0,30})?|latest [\w\s-]{2,40} news(?: [\w\s&,]{0,30})?)(?:\s*[(&,].*|\s+(?:in|near|at|around|from|by|for|and|-)\s.*)?$/i;
const RANKING_TITLE = /^\s*(?:the )?(?:\d+\s|best\b|top\b|how\b|why\b|what\b|when\b|guide\b)/i;
const FORUM_HOST = /(?:^|\.)(?:forums?|bbs|community|discuss|discussions?|answers)\.|forum/;
// A thread's own address: a discussion path word with the thread's number (Stack Exchange's
// /questions/123/slug, Discourse's /t/slug/123, XenForo's /threads/slug.123, Invision's and
// NodeBB's /topic/123-slug or /topic/123/slug, MyBB's /thread-123.html). A topic page without a
// number (/topic/headphones) is a news site's tag.
const THREAD_URL = /\/(?:questions\/\d+|post\/\d+\/?$|t\/[^/]+\/\d+|threads\/[^/]*\.\d+|topic\/\d+|thread-\d+\.html?)(?:[/.-]|$)/;
// A title that names a service on offer: who does what for hire ("Organic SEO Consultant",
// "Business Formation Service New York", "Treadmill Repair … FREE ESTIMATES"). Only the title's
// first part, not a question or an editor's ranking ("Best SEO services", "What is customer service?").
const SERVICE_TITLE =
  /\b(?:services?|consultants?|consulting|agency|repairs?|installation|contractors?|attorneys?|lawyers?|hire|tutors?|free (?:estimates?|quotes?|consultations?))\b/i;
// A title that names software on offer ("Free CRM Software for SMBs", "Compare Professional Tax
// Software", "HRMS - Human Resource Management Software"): a vendor's page, read in the title up to
// the site's name; not a ranking or a question ("5 Best Accounting Software", "What is CRM software?").
const SOFTWARE_TITLE = /\bsoftware\b/i;
// A telephone number in the title: a local business asking to be called.
const PHONE = /\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/;
// A tool to use rather than a text to read: a calculator or an estimator.
const TOOL = /\b(?:calculators?|estimators?|checkers?)\b/i;
// A title that sells goods: "Buy 4K Dash Cams", "Shop Men's Sneakers", "… | Free Shipping over $99".
const PRICE = /(?:[$€£]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|EUR|USD)\b)/;
const TRIAL_TITLE = /\b(?:try (?:it )?(?:for )?free|free trial|start (?:for )?free|(?:book|get|request) a demo)\b/i;
// schema.org's story types: an Article node of any kind (NewsArticle, BlogPosting, TechArticle, …).
const ARTICLE_NODE = /article|posting|report/;
const SHOP_TITLE = /^\s*(?:buy|shop)\s+\w|\bfree shipping\b/i;

// --- Content Intelligence's rule: one of eight types, by votes.

/**
 * The page's type, from schema.org types first, then URL and structure. Types decide which rules
 * apply: a shop's product page is not told to add an author byline, a collection is judged on
 * its ItemList, a forum thread on its posts.
 */
export function detectPageType(doc: PageDocument): { type: PageType; reason: string } {
  const { type, reason } = explainPageType(doc);
  return { type, reason };
}

/** One rule's vote: the type it supports, its points and its name. */
export interface PageTypeVote {
  type: PageType;
  points: number;
  rule: string;
}

/** What the rules saw on a page: every vote that fired, the points per type and the first reason
 * per type. */
interface PageTypeSignals {
  votes: PageTypeVote[];
  scores: Record<PageType, number>;
  why: Partial<Record<PageType, string>>;
}

/** detectPageType with every vote that decided it and the hand-weighted rules' own answer (for
 * the bench and for tests). */
export function explainPageType(doc: PageDocument): { type: PageType; reason: string; votes: PageTypeVote[]; rules: { type: PageType; reason: string } } {
  const { votes, rules } = pageTypeByRules(doc);
  return { ...learnedLayer(doc, votes, rules), votes, rules };
}

/** The hand-written rules alone: their votes and the type with the most points. */
export function pageTypeByRules(doc: PageDocument): { votes: PageTypeVote[]; rules: { type: PageType; reason: string } } {
  const { votes, scores, why } = pageTypeSignals(doc);
  return { votes, rules: handWeighted(scores, why) };
}

/**
 * The learned layer (./page-type-model.ts): a logistic regression over the rules' votes and the
 * page's own evidence (./page-type-evidence.ts) picks the type among those the rules voted for
 * (and article, the default). A site's root stays `home` and a search a listing, by the rules.
 * Where it agrees with the rules the rules' reason stands; where it does not, the reason names
 * the rules' answer and the three pieces of evidence that moved it most.
 */
function learnedLayer(doc: PageDocument, votes: PageTypeVote[], rules: { type: PageType; reason: string }): { type: PageType; reason: string } {
  const evidence = typeEvidence(doc, votes, rules.type);
  const type = learnedChoice(typeProbabilities(evidence), rules.type, votes);
  if (type === rules.type) return rules;
  const by = strongestEvidence(evidence, type, rules.type)
    .map((e) => `${e.feature} +${e.by.toFixed(1)}`)
    .join(', ');
  return { type, reason: `learned: ${type} over the rules' ${rules.type} (${rules.reason}); evidence: ${by}` };
}

/** The answer: the type with the most points, article when nothing votes. */
function handWeighted(scores: Record<PageType, number>, why: Partial<Record<PageType, string>>): { type: PageType; reason: string } {
  const order: PageType[] = ['home', 'listing', 'product', 'collection', 'documentation', 'forum', 'service', 'article'];
  let best: PageType = 'article';
  let bestScore = 0;
  for (const type of order) {
    if (scores[type] > bestScore) {
      best = type;
      bestScore = scores[type];
    }
  }
  return { type: best, reason: bestScore ? why[best]! : 'default: prose page' };
}

/** Every rule's vote on the page. */
function pageTypeSignals(doc: PageDocument): PageTypeSignals {
  const votes: PageTypeVote[] = [];
  const t = new Set(jsonLdTypes(doc.jsonLd).map((x) => x.toLowerCase()));
  const paras = doc.blocks.filter((b) => b.kind === 'paragraph').length;
  let path = '/';
  let query = '';
  let host = '';
  try {
    const u = new URL(doc.url);
    path = u.pathname.toLowerCase();
    query = u.search.toLowerCase();
    host = u.hostname.toLowerCase();
  } catch {
    /* keep "/" */
  }
  const scores: Record<PageType, number> = { article: 0, product: 0, collection: 0, listing: 0, documentation: 0, service: 0, forum: 0, home: 0 };
  const why: Partial<Record<PageType, string>> = {};
  const vote = (type: PageType, points: number, reason: string) => {
    scores[type] += points;
    votes.push({ type, points, rule: reason });
    if (!why[type]) why[type] = reason;
  };
  if (t.has('searchresultspage')) vote('listing', 6, 'JSON-LD SearchResultsPage');
  const og = (doc.openGraph['type'] ?? '').toLowerCase();
  // A CMS that marks every page og:type article (WordPress with Yoast or Rank Math) says in its
  // own schema graph what the page is: a post gets an Article node, a standing page only a
  // WebPage. Then og:type and the page's creation date say nothing about a story.
  const cmsPage = og === 'article' && t.has('webpage') && ![...t].some((x) => ARTICLE_NODE.test(x));
  const published = cmsPage ? undefined : doc.dates.published;
  // A Product node beside a local business, with no Offer, is how many service sites carry their
  // review stars: it sells nothing.
  // So is a Product node with no Offer on a page that shows no price and no cart button: a
  // contractor's or an agency's review stars, nothing to buy.
  const layout0 = doc.page?.layout;
  const nothingPriced = layout0 ? layout0.prices === 0 && layout0.cartButtons === 0 && layout0.pricedCards === 0 : countMatches(doc.bodyText, PRICE) === 0;
  const ratingOnly =
    !t.has('offer') && !t.has('aggregateoffer') && (t.has('localbusiness') || t.has('service') || [...t].some((x) => LOCAL_BUSINESS.test(x)) || nothingPriced);
  // Software described by its vendor (a SoftwareApplication or WebApplication node): what is sold
  // is a subscription, so a Product node beside it is the app's rating card, not an item to buy.
  const software = t.has('softwareapplication') || t.has('webapplication');
  if ((t.has('product') || t.has('productgroup')) && !ratingOnly && !software) vote('product', 5, 'JSON-LD Product');
  if (t.has('offer') || t.has('aggregateoffer')) vote('product', 1, 'JSON-LD Offer');
  if (t.has('techarticle') || t.has('apireference')) vote('documentation', 5, 'JSON-LD TechArticle');
  if (t.has('article') || t.has('blogposting') || t.has('newsarticle') || t.has('reportagenewsarticle')) vote('article', 5, 'JSON-LD Article');
  if (t.has('service') || t.has('professionalservice') || t.has('localbusiness') || [...t].some((x) => LOCAL_BUSINESS.test(x)))
    vote('service', 4, 'JSON-LD Service');
  if (t.has('qapage') || t.has('discussionforumposting')) vote('forum', 6, 'JSON-LD QAPage/DiscussionForumPosting');
  // A CollectionPage is any page of many items; it is a shop's only where something is for sale
  // (decided below, once prices and cart buttons are counted).
  const collectionNode = t.has('collectionpage') || t.has('offercatalog');
  if (software) vote('service', 4, 'JSON-LD SoftwareApplication');
  // A title that offers a trial or a demo ("Local SEO Software | Try for Free"): a vendor selling
  // its software, whatever its CMS calls the page.
  if (TRIAL_TITLE.test(doc.title ?? '')) vote('service', 4, 'a title that offers a trial');
  if (t.has('itemlist') && !t.has('article') && !t.has('blogposting')) vote('collection', 3, 'JSON-LD ItemList');
  const searchQuery = /[?&](q|query|s|search|k)=/.test(query);
  // The site's root is its front page whatever it shows (a shop's grid, a news site's stories, a
  // company's pitch); tracking parameters (?srsltid=…) do not move it, a search query does.
  if ((path === '/' || /^\/(index\.html?|home)?\/?$/.test(path) || /^\/[a-z]{2}(-[a-z]{2})?\/?$/.test(path)) && !searchQuery) vote('home', 10, 'site root URL');
  if (/\/(search|suche|recherche|buscar|results)(\/|$)/.test(path) || searchQuery) vote('listing', 6, 'search URL');
  if (/\/(docs?|documentation|reference|api|manual|handbook|kb|knowledge-base|help)(\/|$)/.test(path)) vote('documentation', 4, 'documentation URL');
  // A host of its own for the docs (docs.…, developer.…, wiki.…, help.…) or a title that says so.
  if (DOCS_HOST.test(host)) vote('documentation', 5, 'documentation host');
  if (DOCS_TITLE.test(doc.title ?? '')) vote('documentation', 3, 'documentation title');
  const titleHead = (doc.title ?? '').split(/\s[|–—-]\s/)[0] ?? '';
  const listTitle =
    LIST_TITLE.test(titleHead) &&
    !RANKING_TITLE.test(titleHead) &&
    titleHead.split(/\s+/).length <= 9 &&
    !/\/(?:blog|news|articles?|magazine|story|stories)\//.test(path) &&
    !t.has('article') &&
    !t.has('newsarticle') &&
    !t.has('blogposting');
  if (listTitle) vote('listing', 6, 'a title that names a list');
  if (FORUM_HOST.test(host) || /\/(?:viewtopic|showthread|showtopic)\.php$/.test(path)) vote('forum', 4, 'forum host or script');
  if (THREAD_URL.test(path)) vote('forum', 4, "a thread's address");
  if (/\/(?:v\d+(?:\.\d+)*|latest|stable|current|master|main)\//.test(path) && scores.documentation > 0)
    vote('documentation', 2, 'versioned documentation URL');
  // A section's own front (/news, /blog, /news/technology) lists its stories; a story sits below it.
  // A shop's blog (Shopify's /blogs/news/…) and a site builder's (/blog-posts/…) are blogs too.
  const SECTION =
    /\/(blogs?|blog-posts?|news|articles?|magazine|insights|ratgeber|actualites|noticias|story|stories|learning-center|knowledge-center|resource-center|resources|guides)(\/|$)/;
  if (
    /\/(?:blog|news|articles|magazine|insights|stories|category|categories|topics?|resources|guides|learning-center|knowledge-center|resource-center)(?:\/[a-z]{2,20})?\/?$/.test(
      path,
    ) &&
    !/\d/.test(path) &&
    !query
  )
    vote('listing', 4, 'section front URL');
  // A blog's or magazine's category or tag page (/magazine/category/electronic-gadgets).
  else if (/\/(?:blog|news|articles?|magazine|insights|stories)\/(?:category|categories|tags?|topics?)\/[\w-]+\/?$/.test(path))
    vote('listing', 4, 'section front URL');
  else if (SECTION.test(path) || /^(?:blog|news|magazine)\./.test(host)) vote('article', 3, 'blog/news URL');
  // An entry of a glossary, a dictionary or an encyclopedia (/glossary/fitness-exercise-training)
  // explains one term: a text to read, whatever its headings ("Benefits", "How it works", "FAQ").
  if (/\/(?:glossary|dictionary|encyclop(?:a)?edia|definitions?)\/[^/]+/.test(path)) vote('article', 3, 'a glossary entry');
  const text = doc.bodyText;
  const layout = doc.page?.layout;
  const cart = /\b(add to (cart|basket|bag)|in den warenkorb|ajouter au panier|añadir al carrito|buy now|jetzt kaufen)\b/i;
  const prices = countMatches(text, PRICE);
  // Something on the page is for sale: a price, a cart button, an offer or a declared product. A
  // vendor's /products/cdn page with none of these sells a service.
  const commerce =
    scores.product > 0 || /product/.test(doc.openGraph['type'] ?? '') || (layout ? layout.prices > 0 || layout.cartButtons > 0 : prices > 0 || cart.test(text));
  const productUrl = /\/(products?|p|item|dp|pdp|produkt|produit|producto)(\/|$)/.test(path);
  // A collection of recipes, stories or videos is a list of pages to read, not goods.
  const forSale = commerce || t.has('offercatalog') || prices >= 6 || (layout?.pricedCards ?? 0) >= 4;
  if (collectionNode) vote(forSale ? 'collection' : 'listing', 5, 'JSON-LD CollectionPage');
  // schema.org's ItemPage on a page with something for sale: one item's page.
  if (t.has('itempage') && commerce) vote('product', 3, 'JSON-LD ItemPage with a price');
  // A maker's page for one model states its list price at the top ("$399.99 MSRP"); a grid
  // repeats the word under every card.
  if (countMatches(text, /\bmsrp\b/i) <= 2 && /(?:[$€£]\s?\d[\d.,]*\s*\*?\s*msrp|\bmsrp:?\s*[$€£]\s?\d)/i.test(text.slice(0, 400)))
    vote('product', 3, 'a list price (MSRP) at the top');
  if (productUrl) vote('product', commerce ? 3 : 1, 'product URL');
  // The last part of the address carries a model or SKU code, letters and at least four digits in
  // one token (three in a token of eight or more) (/J755020.html, /…-sm-x510nzaamea/): a maker's or a shop's page for one item. A
  // story's numeric id (/1206601882/) has no letters, a date no letters either.
  const lastSeg = (path.split('/').filter(Boolean).at(-1) ?? '').replace(/\.html?$/, '');
  const modelCode = lastSeg
    .split(/[-_]/)
    .some(
      (tok) => (/^(?=.*[a-z])(?=(?:.*\d){4})[a-z\d]{6,16}$/.test(tok) || /^(?=.*[a-z])(?=(?:.*\d){3})[a-z\d]{8,16}$/.test(tok)) && !/^(?:19|20)\d\d/.test(tok),
    );
  if (modelCode && !SECTION.test(path) && scores.article < 5) vote('product', 3, 'a model code in the URL');
  // A shop's own host (shop.…, store.…, buy.…): below its root, a page without the marks of one item
  // is one of its departments.
  const shopHost = /^(?:shop|store|buy|boutique|tienda|negozio)\./.test(host);
  // On a shop's host, an item's kind and number (/app/1174180/Red_Dead_Redemption_2/,
  // /game/123, /item/456): one item's page, even when no price shows (a free game).
  const shopItem = shopHost && /\/(?:apps?|games?|items?|listing)\/\d+(?:\/|$)/.test(path);
  if (shopItem) vote('product', 4, "an item's number on a shop host");
  // A post of the shop's blog (/blogs/…) is a story, not a department.
  else if (
    shopHost &&
    !/\/(products?|p|item|dp|pdp)\//.test(path) &&
    !SECTION.test(path) &&
    scores.product === 0 &&
    !(layout && layout.cartButtons >= 1 && layout.cartButtons <= 2)
  )
    vote('collection', 4, 'a shop host');
  // A category's address is a shop's, unless the title names what it lists (jobs, courses: "Remote
  // Full-Stack Programming Jobs" under /categories/).
  if (/\/(collections?|[\w-]*categor(?:y|ies|ie|ia)|kategorie|shop|store|browse|c)(\/|$)/.test(path) && !/\/(products?|p)\//.test(path) && !listTitle)
    vote('collection', 3, 'collection URL');
  if (/\/(tags?|archive|page\/\d+|author|list)(\/|$)/.test(path)) vote('listing', 3, 'archive URL');
  // A directory, by its address or its host (/directory/8010427/houston, directory.libsyn.com), lists
  // places, people, firms or podcasts the way an archive lists posts.
  else if (/\/directory(\/|$)/.test(path) || /^directory\./.test(host)) vote('listing', 3, 'a directory');
  // A shop's address (a product or a category) voted: "Contact us" and one-word names are the
  // shop's furniture, not a service's offer.
  const shopUrl = scores.collection > 0 || (scores.product > 0 && commerce);
  const serviceUrl = /\/(services?|solutions?|leistungen|dienstleistungen|prestations|servicios|landing|lp)(\/|$)/.test(path);
  if (serviceUrl) vote('service', 5, 'service URL');
  // The title offers a service or gives a number to call, on a page that is not a declared story.
  const titleMain = (doc.title ?? '').split(/\s\|\s/)[0] ?? '';
  const offerTitle =
    (SERVICE_TITLE.test(titleHead) || SOFTWARE_TITLE.test(titleMain) || PHONE.test(doc.title ?? '')) &&
    !RANKING_TITLE.test(titleHead) &&
    !RANKING_TITLE.test(titleMain) &&
    !titleMain.includes('?');
  if (offerTitle && !serviceUrl && scores.article < 5 && !SECTION.test(path) && !shopUrl && !(layout && layout.pricedCards >= 4))
    vote('service', 4, 'a title that offers a service');
  // A telephone number in the page's opening lines: a local business asking to be called ("need an
  // electrician in a hurry, call today (408) 748-9663"); a story gives a number, if at all, lower down.
  if (PHONE.test(text.slice(0, 400)) && !offerTitle && scores.article < 5 && !SECTION.test(path) && !shopUrl) vote('service', 3, 'a number to call at the top');
  // A title that offers the program itself ("Visual Studio Community | Download Latest Free Version"):
  // a maker's download page for one program, an item like a game's store page.
  if (/\bdownload\b/i.test(doc.title ?? '') && !RANKING_TITLE.test(titleHead) && !(doc.title ?? '').includes('?') && scores.article < 5 && !SECTION.test(path))
    vote('product', 3, 'a title that offers a download');
  // A calculator or an estimator: a tool a business offers, not a text to read.
  if ((TOOL.test(titleHead) || TOOL.test(lastSeg)) && !RANKING_TITLE.test(titleHead) && scores.article < 5 && !SECTION.test(path))
    vote('service', 3, 'a tool page');
  // The title sells goods ("Buy …", "Shop …", "free shipping"): a shop's department, unless the
  // address or the markup names one item.
  const goodsTitle = SHOP_TITLE.test(doc.title ?? '') && scores.product === 0 && !productUrl && scores.article < 5;
  if (goodsTitle) vote('collection', 4, 'a title that sells goods');
  // A story's address names it in words or dates it (/2025/09/how-to-book-a-flight); an undated
  // page of some length named in one word (/lambda/, /seocheck) is a standing page of the site.
  const segs = path.split('/').filter(Boolean);
  const slugWords = (segs.at(-1) ?? '')
    .replace(/\.\w+$/, '')
    .split(/[-_]/)
    .filter(Boolean).length;
  if (
    segs.length &&
    doc.wordCount >= 150 &&
    slugWords === 1 &&
    !doc.dates.published &&
    !/\d/.test(path) &&
    !SECTION.test(path) &&
    scores.article < 5 &&
    !shopUrl &&
    scores.listing === 0
  )
    vote('service', 2, 'a standing page, named in one word');
  // What an institution offers: its programmes, degrees, plans, prices, departments.
  if (/\/(?:programs?|programmes?|certificates?|degrees?|tuition|admissions|pricing|plans|departments?)(?:\/|$)/.test(path) && !SECTION.test(path))
    vote('service', 3, 'offer URL');
  // An address that names what is offered ("…/offers-deals", "…/affordable-health-plans",
  // "…/tuition-and-fees") on an undeclared page.
  else if (
    segs.some((x) => /(?:^|[-_])(?:plans|packages|offers|deals|pricing|tuition|quotes?|coupons?|discounts|specials|promotions)(?:[-_.]|$)/.test(x)) &&
    scores.article < 3 &&
    !SECTION.test(path) &&
    !shopUrl
  )
    vote('service', 3, 'offer words in the URL');
  // An institution's unit named as the page's last word (/151/Building-Department, /parks-program).
  else if (/[-_](?:department|programs?|programmes?|office)(?:\.html?)?\/?$/.test(path) && !SECTION.test(path) && !shopUrl) vote('service', 3, 'offer URL');
  // A business's own pages about itself: who it is, how to reach it.
  if (/\/(?:pages\/)?(?:about(?:-us)?|contact(?:-us)?|company|ueber-uns|uber-uns|a-propos|quienes-somos|kontakt)(?:\.html?)?\/?$/.test(path))
    vote('service', 3, 'about or contact URL');
  // A community's threads sit below its address (/community/t/…); a page named "community" at the
  // end of its address is a product's edition or a site's page about its users (/vs/community/).
  if (/\/(forum|forums|discussions?|questions|threads?|t|r)(\/|$)|\/community\/[^/]/.test(path)) vote('forum', 4, 'forum URL');
  if (og === 'product' || og === 'og:product') vote('product', 4, 'og:type product');
  if (og === 'product.group') vote('collection', 5, 'og:type product.group');
  if (og === 'article') vote('article', cmsPage ? 1 : 2, 'og:type article');
  // og:type book on a page with nothing for sale: a chapter of a book read online (a technical
  // book's chapter is documentation); a shop's page for a book has its price or cart.
  if ((og === 'book' || og === 'books.book') && !commerce) vote('documentation', 4, 'og:type book, nothing for sale');
  const codeBlocks = doc.blocks.filter((b) => b.kind === 'code').length;
  // Code in a dated post or under a blog's address is a developer's article, not the manual.
  const story = !!published || SECTION.test(path) || /\/(?:posts?|notes)\//.test(path);
  if (codeBlocks >= 2 && !story) vote('documentation', 2, 'code blocks');
  // Headings that are links to other pages, one after another: an archive or a list of results.
  // Only links within the site count: a round-up's headings that link to the shops or projects it
  // reviews elsewhere are still an article's sections.
  const sameSite = (href: string) => {
    try {
      return new URL(href).hostname.replace(/^www\./, '') === host.replace(/^www\./, '');
    } catch {
      return false;
    }
  };
  const linkTexts = new Set(doc.links.main.filter((l) => l.href.split('#')[0] !== doc.url.split('#')[0] && sameSite(l.href)).map((l) => l.text.trim()));
  const subheadings = doc.blocks.filter((b) => b.kind === 'heading' && b.level >= 2);
  // A card's link often wraps more than the heading ("84 reviews / 5 average Air Fryer Salmon"):
  // a heading of some length inside a link's text counts too.
  const cardTexts = [...linkTexts].filter((x) => x.length >= 12);
  const linkedHeadings = subheadings.filter((b) => {
    const h = (b as { text: string }).text.trim();
    return linkTexts.has(h) || (h.length >= 12 && cardTexts.some((x) => x.endsWith(h)));
  }).length;
  // Most subheadings link away (an article's headings name its own sections).
  if (linkedHeadings >= 4 && linkedHeadings * 3 >= subheadings.length * 2) vote('listing', 4, 'headings that link to other pages');
  // Where the layout was read, its cart-button count decides; "add to cart" in the text alone is a
  // grid's or a rail's label as often as the item's own button.
  if (cart.test(text) && prices <= 3 && !layout) vote('product', 3, 'add-to-cart text');
  // Many priced items and little prose: a category grid.
  // Where the page's layout was read, prices in the text count only if the page shows a price box
  // or a priced card at all: otherwise they are figures in prose (a tuition table, an article on what insurance costs).
  const itemPrices = !layout || layout.prices > 0 || layout.pricedCards > 0;
  if (prices >= 6 && paras <= prices && itemPrices) vote('collection', 3, 'many priced items');
  if (/\b(\d[\d,.]* (results|products|items|treffer|ergebnisse|résultats|resultados))\b/i.test(text) && prices >= 3) vote('collection', 2, 'result count');
  // A results page heads its list with a short line ("Search results for …", "12 results for …");
  // the same words inside a sentence ("rank higher in search results") or a name ("Results for
  // America") say nothing: "results for" counts only before a quoted query.
  if (
    text
      .split('\n')
      .some(
        (l) =>
          l.length <= 100 &&
          /^(?:\d[\d,.]*\s+)?(?:search results|suchergebnisse|résultats de (?:la )?recherche|resultados de (?:la )?búsqueda)\b|^(?:\d[\d,.]*\s+)?(?:results? for|ergebnisse für|résultats pour|resultados para)\s*["“'‘«:]/i.test(
            l.trim(),
          ),
      )
  )
    vote('listing', 3, 'search results heading');
  // "Quote" is a forum's button but also an insurer's or a contractor's offer: not counted; "joined"
  // only as a member's date ("Joined: Mar 2019"), not a manual's "the tables are joined".
  if (
    countMatches(
      text,
      /\b(reply|replies|posted by|upvotes?|antworten|répondre|responder|beiträge)\b|\bjoined(?::|\s+(?:in\s+|on\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d))/i,
    ) >= 3
  )
    vote('forum', 3, 'reply/post markers');
  // Lines that are each little more than a link's text ("What happened when … (cnn.com)", "3 points
  // by x | discuss"): a list of items, one a line, as on a news aggregator's or a directory's page.
  const anyLinkTexts = [...new Set(doc.links.main.map((l) => l.text.trim()))];
  const linkLines = doc.blocks.filter((b) => {
    if (b.kind !== 'paragraph') return false;
    const line = (b as { text: string }).text.trim();
    return line.length <= 160 && anyLinkTexts.some((x) => x.length >= 12 && line.includes(x) && x.length * 2 >= line.length);
  }).length;
  if (doc.links.main.length >= 12 && paras <= doc.links.main.length / 3 && prices < 6) vote('listing', 3, 'many links, little prose');
  // The main text is little more than the labels of its links: an index of other pages.
  else if (doc.links.main.length >= 20 && doc.wordCount <= doc.links.main.length * 3 && prices < 6) vote('listing', 3, 'main text mostly link labels');
  else if (
    linkLines >= 15 &&
    linkLines * 3 >= paras &&
    prices < 6 &&
    doc.wordCount <= doc.links.main.length * 6 &&
    !published &&
    !story &&
    scores.collection === 0
  )
    vote('listing', 3, 'lines that are links');
  if (doc.dates.published && paras >= 4) vote('article', 2, 'dated prose');
  // A numbered run of subheadings (1. …, 2. …, 3. …) over a page of prose: a list article ("7
  // mental health trends", "My top 3 CRM picks"). A service's "how it works" steps are short.
  if (!serviceUrl && doc.wordCount >= 800 && paras >= 10 && numberedRun(subheadings.map((b) => (b as { text: string }).text)) >= 3)
    vote('article', 3, 'numbered headings over prose');
  // Headings that sell ("Why choose us", "How it works", "Pricing", "What our clients say", "FAQ")
  // on a page with no publication date: a business presenting its offer, not a story.
  // Three code blocks or more make the page a technical one, whatever its headings say.
  if (
    !published &&
    scores.article < 3 &&
    Math.max(codeBlocks, layout?.codeBlocks ?? 0) < 3 &&
    doc.headings.filter((h) => SELLING_HEADING.test(h.text)).length >= 2
  )
    vote('service', 3, 'headings that sell, no publication date');
  if (/\b(book a (call|demo)|contact us|get a quote|request a quote|our services|free consultation|angebot anfordern|devis|solicita)\b/i.test(text) && !shopUrl)
    vote('service', 2, 'service call to action');
  // The whole page's structure (src/core/pages/extract/layout.ts), beyond the main text: the buy
  // box, priced cards, a pager, posts with authors, a docs sidebar with code, calls to action.
  if (layout) {
    // An article says so in its JSON-LD or its URL: then cards, posts and calls to action beside
    // it are its rails, comments and promotions, not what the page is.
    const declared = scores.article >= 3;
    // A very large grid of cards beside many prices or cart buttons, or a grid whose prices the
    // main text lists (short text, many prices): a shop's category, even when each card carries
    // its own Product markup. A product page's related-items rail is a smaller grid that the
    // main text leaves out.
    const bigGrid = layout.cards >= 20 && (layout.cartButtons >= 3 || layout.prices >= 6);
    const textGrid = layout.cards >= 6 && prices >= 6 && doc.wordCount <= prices * 50 && itemPrices;
    // An item's address with its own buy button: the priced cards around it are rails ("customers
    // also bought"), however many.
    if (productUrl && layout.cartButtons >= 1 && layout.pricedCards >= 4) vote('product', 3, 'a product address with a buy button');
    if (layout.pricedCards >= 4 && !declared) vote('collection', 4, 'cards with prices');
    // So many priced cards for so few words that the grid is the page, whatever og:type and a date
    // say (a brand's page of its bottles on a CMS that marks every page an article).
    else if (layout.pricedCards >= 8 && doc.wordCount <= layout.pricedCards * 30 && !t.has('article') && !t.has('blogposting') && !t.has('newsarticle'))
      vote('collection', 4, 'cards with prices');
    else if ((bigGrid || textGrid) && !declared) vote('collection', bigGrid ? 8 : 6, 'a grid of priced items');
    // A button or two beside a story under a blog's address (/blog-posts/…) sells in its rail or its
    // footer; the story is what the page is.
    if (layout.cartButtons >= 1 && layout.cartButtons <= 2 && !(SECTION.test(path) && !productUrl && scores.article >= 3))
      vote('product', 4, 'add-to-cart button');
    // Many cart buttons beside as many prices: a list of items, each with its own button (a
    // category drawn as rows rather than cards).
    else if (layout.cartButtons >= 6 && layout.prices >= 6 && !bigGrid && !textGrid && !declared)
      vote('collection', 4, 'many items with their own cart buttons');
    // More cart buttons and no grid: the item's own and those of a related-items rail.
    else if (layout.cartButtons >= 3 && !bigGrid && !textGrid) vote('product', 2, 'add-to-cart buttons');
    else if (layout.prices >= 1 && layout.prices <= 3 && layout.pricedCards < 4) vote('product', 1, 'a price');
    // A search form and a count of results ("1–20 of 143 results") above a list: search results.
    if (layout.searchForms >= 1 && layout.cards >= 4 && /\b\d[\d,.]*\s+(?:results?|treffer|ergebnisse|résultats|resultados)\b/i.test(doc.bodyText) && !declared)
      vote(layout.pricedCards >= 4 ? 'collection' : 'listing', 2, 'search form with a result count');
    // Cards under a title that sells goods are the goods, priced or not.
    else if (layout.cards >= 8 && paras <= layout.cards && !declared) vote(goodsTitle ? 'collection' : 'listing', 2, 'many similar cards');
    if (layout.pagination && layout.cards >= 8 && !declared) vote(layout.pricedCards >= 4 || goodsTitle ? 'collection' : 'listing', 1, 'pagination');
    // A chapter of a book read online: its file is numbered (/01_introduction.html, /02-setup,
    // /chapter-3; not a CMS's story id, /686-the-five-best-…) and it pages to the previous and the next chapter.
    if (layout.pagination && /^(?:\d{1,3}[_.][a-z]|0\d-[a-z]|ch(?:apter)?[-_]?\d)/.test(lastSeg) && !story && scores.article < 3)
      vote('documentation', 3, 'a numbered chapter with its pager');
    // On a forum's own host a thread's posts are the page, whatever article markup its CMS adds.
    if (layout.posts >= 3 && (!declared || (FORUM_HOST.test(host) && layout.posts >= 5))) vote('forum', 4, 'posts with authors or times');
    if (layout.navTreeLinks >= 10 && layout.codeBlocks >= 1) vote('documentation', 4, 'sidebar navigation tree and code');
    else if (layout.codeBlocks >= 3 && !story) vote('documentation', 2, 'code blocks on the page');
    // og:type article is what many CMSs set on every page, but a landing page rarely sets it.
    if (layout.ctas >= 1 && !published && !declared && (og !== 'article' || cmsPage) && !shopUrl) vote('service', 3, 'calls to action, no publication date');
  }
  return { votes, scores, why };
}

/** The longest run of headings numbered 1, 2, 3, … in order ("1. Klaviyo", "2) HubSpot", "3 – …"). */
export function numberedRun(headings: string[]): number {
  let best = 0;
  let next = 1;
  for (const h of headings) {
    const m = /^\s*#?(\d{1,2})\s*[.):–—-]\s*\S/.exec(h);
    if (!m) continue;
    const n = Number(m[1]);
    if (n === next) next++;
    else next = n === 1 ? 2 : 1;
    best = Math.max(best, next - 1);
  }
  return best;
}

// --- The extractor's rule: yes/no questions on the page's metadata, before any text is read.
// Its patterns are rule tables of the extractor (extract/rules.ts: PRODUCT_URL, FORUM_URL, …).

export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** A JSON-LD item (also inside @graph) has a @type matching re. */
export function hasJsonLdType(meta: PageMetadata, re: RegExp): boolean {
  const matches = (t: unknown): boolean => (typeof t === 'string' ? re.test(t) : Array.isArray(t) && t.some(matches));
  const stack: unknown[] = [...meta.jsonLd];
  for (let n = 0; stack.length && n < 200; n++) {
    const item = stack.pop();
    if (Array.isArray(item)) stack.push(...item.slice(0, 50));
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      if (matches(o['@type'])) return true;
      if (o['@graph']) stack.push(o['@graph']);
    }
  }
  return false;
}

/** The page declares itself a product (og:type or a JSON-LD Product, also inside @graph). */
export function isProductPage(meta: PageMetadata, url: string): boolean {
  if (/product|(?:^|[:.])item$/i.test(meta.openGraph.type ?? '')) return true;
  // Shop URL shapes: /product/…, /products/…, /dp/ASIN, /itm/123, /ip/…, /p/…-123.
  if (PRODUCT_URL.test(pathOf(url))) return true;
  return hasJsonLdType(meta, PRODUCT_TYPES);
}

/** The page declares itself a collection of products or a list (og:type product.group, a
 * JSON-LD CollectionPage): there other products' cards are the content. */
export function isCollectionPage(meta: PageMetadata): boolean {
  return PRODUCT_GROUP_OG.test(meta.openGraph.type ?? '') || hasJsonLdType(meta, COLLECTION_TYPES);
}

export function isForumPage(meta: PageMetadata, url: string, forumItems: number): boolean {
  if (FORUM_URL.test(pathOf(url)) || /forum/i.test(meta.openGraph.type ?? '') || forumItems > 0) return true;
  try {
    const u = new URL(url);
    if (
      FORUM_NAME.test(u.hostname) ||
      u.pathname
        .split('/')
        .slice(0, -1)
        .some((seg) => FORUM_NAME.test(seg))
    )
      return true;
  } catch {
    // no URL: the other signals decide
  }
  return hasJsonLdType(meta, FORUM_TYPES);
}

/** The page says it is an article: og:type article, or a schema.org Article (JSON-LD or microdata). */
export function declaresArticle(meta: PageMetadata, articleItems: number): boolean {
  return articleItems > 0 || /^article$/i.test(meta.openGraph.type ?? '') || hasJsonLdType(meta, ARTICLE_TYPES);
}
