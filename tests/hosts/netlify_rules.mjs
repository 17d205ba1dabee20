// Parse a built folder's _redirects and _headers with Netlify's own parsers; print JSON.
import { parseAllRedirects } from '@netlify/redirect-parser'
import { parseAllHeaders } from '@netlify/headers-parser'

const dir = process.argv[2]
const redirects = await parseAllRedirects({ redirectsFiles: [`${dir}/_redirects`], configRedirects: [], minimal: true })
// Not minimal: each header rule then carries `forRegExp`, the expression Netlify matches paths with.
const headers = await parseAllHeaders({ headersFiles: [`${dir}/_headers`], configHeaders: [], minimal: false })
console.log(JSON.stringify({
  redirects: redirects.redirects,
  headers: headers.headers.map(({ for: path, values, forRegExp }) => ({ for: path, values, regexp: forRegExp.source })),
  errors: [...redirects.errors, ...headers.errors].map(String),
}))
