// Rule numbers with what they are about: the game's own `rule_topics` (/api/source), never the page's words.

// "4.2 — entering an enemy ZOC"; the number alone when the game gives it no topic.
export function ruleText(source, rule) {
  const topic = ((source && source.rule_topics) || {})[rule];
  return topic ? `${rule} — ${topic}` : String(rule);
}
