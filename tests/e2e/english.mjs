// The check that a Korean or Thai page shows no English: every rendered text node (the
// parts of a name around a <wbr> as one, and every aria-label and title) of a page or
// frame, outside <pre>, <code> and [data-kafka], whose Latin words are not Kafka
// identifiers or the nouns the courses keep in English.
// Used by i18n.test.mjs (the playground) and embed.test.mjs (the sample course pages).

// Words a Korean or Thai page may show in Latin letters: Kafka's identifiers (API,
// state, error and config names are matched by shape below), and the nouns the Thai
// course material writes in English. `None` is what kafka-transactions.sh prints for an
// absent offset (describe-producers); Pulsar is a product name.
export const ALLOWED_WORDS = new Set(
  `producer producers broker batch batches partition partitions sequence epoch offset offsets
   transaction transactions snapshot marker markers window consumer consumers coordinator
   leader record records segment topic log client controller raw id pid seq fault faults
   commit abort send flush poll ack idempotent zombie fence latency accumulator bytes ms
   kb s on off empty ready ongoing english state high watermark last stable end error fetch
   control scenario begin run earliest latest docs acks kafka b orders payments trades accounts index
   timeindex socket timer true false all replica replicas isr session feature finalize
   follower followers leaders disk restart process gc file files byte offline recover timeout
   replication replicate failover unclean election cluster instance flag isolation level
   entry cursor subscription conflict buffer pending transactional
   pulsar none
   Empty Ongoing PrepareCommit PrepareAbort CompleteCommit CompleteAbort PrepareEpochFence Dead
   Produce Fetch FindCoordinator InitProducerId AddPartitionsToTxn EndTxn WriteTxnMarkers
   AllocateProducerIds TxnOffsetCommit Space Ctrl KIP TV2 JSON URL LSO LEO HW`
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase()),
);

/** A Latin word that is an identifier by its shape, or an allowed noun. */
export function allowedWord(w) {
  if (ALLOWED_WORDS.has(w.toLowerCase())) return true;
  if (/\d/.test(w)) return true; // orders-0, tx-1, v2, 0..2
  if (/^[A-Z0-9_]{2,}$/.test(w)) return true; // OUT_OF_ORDER_SEQUENCE_NUMBER, APPEND
  if (/[a-z][A-Z]/.test(w)) return true; // producerId, initTransactions
  if (/[._]/.test(w)) return true; // transaction.timeout.ms, read_committed, .txnindex
  if (/^[a-z]$/i.test(w)) return true; // record values a, b, c
  if (/^[a-z0-9]+(-[a-z0-9]+)+$/.test(w)) return true; // reader-rc, init-transactions
  return false;
}

/** Every visible text node of `page` (a page or a frame) with a Latin word that is not allowed. */
export async function englishTextNodes(page) {
  const texts = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let last = null; // the text node last read
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('script, style, pre, code, textarea, option[lang="en"], [data-kafka]')) continue;
      if (!el.getClientRects().length) continue; // not rendered
      const text = n.textContent.trim();
      // A name the page may break at its underscores (`read_<wbr>committed`) is one word.
      if (last && n.previousSibling?.nodeName === 'WBR' && n.previousSibling.previousSibling === last) {
        out[out.length - 1] += text;
      } else if (text) out.push(text);
      last = text ? n : null;
    }
    // Labels a screen reader reads count too.
    for (const el of document.querySelectorAll('[aria-label], [title]')) {
      for (const a of ['aria-label', 'title']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out;
  });
  return [...new Set(texts)].filter((t) => {
    // `key=value` settings and `.ext` file names are identifiers as a whole.
    const bare = t.replace(/\S+=\S+/g, ' ').replace(/(^|[\s(])\.[a-z]+/g, ' ');
    const words = bare.match(/[A-Za-z][A-Za-z0-9_.\-]*/g) || [];
    return words.some((w) => !allowedWord(w.replace(/[.\-]+$/, '')));
  });
}
