import { ssoStartPage } from '../../../api/sso/start-page';

describe('the single sign-on start page', () => {
  it('when it shows an address, then every value is escaped, it has no script, and its one form posts the fields back', () => {
    const html = ssoStartPage({ email: `a"><script>alert(1)</script>@x.test`, nonce: `n"&'<` }, '/auth/sso/start');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('value="a&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.test"');
    expect(html).toContain('name="nonce" value="n&quot;&amp;&#39;&lt;"');
    expect(html.match(/<form /g)).toHaveLength(1);
    expect(html).toContain('<form method="post" action="/auth/sso/start">');
    expect(html).not.toContain('name="organization_id"');
  });
});
