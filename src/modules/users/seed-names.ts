/**
 * Word lists for the synthetic users of `seed` (docs/seed.md), most popular first: the seed
 * picks from them with a skewed distribution, so a few names are common and most are rare, as
 * in real sign-up data. Plain ASCII, so every combination is a valid username.
 */
export const FIRST_NAMES = `
maria james anna john sofia david emma michael laura daniel sarah thomas julia robert
elena william olivia alex mia lucas chloe peter hannah paul lena mark nina chris eva
martin lisa andrew clara kevin sara jose amelia luis isabel carlos grace mateo ines omar
yuki hiro priya arjun fatima ali zoe noah leon ella felix ruby oscar ivy hugo alice
jonas marta pablo lucia diego carmen sven ingrid lars astrid pierre camille louis manon
marco giulia luca chiara jan petra tomasz agnieszka ivan olga dmitri tatiana mehmet ayse
kwame amara chen mei wei ling sanjay ananya kenji sakura tariq leila bruno rafael
beatriz joao aoife ciaran niamh eoin freya magnus quentin odile xavier yara zeynep bjorn
siobhan ugo wanda xenia
`
  .trim()
  .split(/\s+/);

export const LAST_NAMES = `
smith garcia mueller johnson rossi martin brown silva wang kim nguyen lopez schmidt
williams jones fernandez dubois novak kowalski jensen taylor moreau ferrari santos li
zhang patel singh khan ali miller davis wilson anderson thomas moore jackson white
harris clark lewis walker hall young king wright scott green baker adams nelson hill
campbell mitchell roberts carter phillips evans turner torres parker collins edwards
stewart morris murphy cook rogers morgan peterson cooper reed bailey bell gomez kelly
howard ward cox diaz richardson wood watson brooks bennett gray james reyes cruz hughes
price myers long foster sanders ross morales powell sullivan russell ortiz jenkins
gutierrez perry butler barnes fisher henderson coleman simmons weber wagner becker
hoffmann schulz koch richter klein wolf neumann bianchi romano colombo ricci marino
greco bruno gallo conti esposito leroy roux fournier girard bonnet lambert fontaine
chevalier blanc guerin yamamoto tanaka suzuki watanabe ito nakamura kobayashi sato kato
yoshida okafor mensah abara nwosu haddad nasser yilmaz demir sahin quiroga
`
  .trim()
  .split(/\s+/);

/** Email domains and how many users out of 100 use each (reserved names: RFC 2606, RFC 6761). */
export const EMAIL_DOMAINS: readonly [string, number][] = [
  ['example.com', 30],
  ['example.org', 25],
  ['example.net', 15],
  ['mail.test', 10],
  ['inbox.example', 8],
  ['post.example', 5],
  ['corp.example', 4],
  ['uni.example', 3],
];
