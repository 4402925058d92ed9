# Sphinx configuration of the automation.service documentation site.
# `make docs` (tests/ci/docs.sh) generates the plugin pages with antsibull-docs
# next to the guides of docs/docsite/rst and builds the HTML into docs/_build/html.
# The build is offline: no intersphinx, diagrams drawn by the local graphviz `dot`.

project = 'automation.service'
copyright = 'automation.service contributors'  # noqa: A001 - Sphinx's name
title = 'automation.service collection'
html_short_title = 'automation.service'

extensions = ['sphinx.ext.graphviz', 'sphinx_antsibull_ext']

pygments_style = 'ansible'
highlight_language = 'YAML+Jinja'

html_theme = 'sphinx_ansible_theme'
html_show_sphinx = False
html_use_smartypants = True
html_use_modindex = False
html_use_index = False
html_copy_source = False
html_theme_options = {
    'collapse_navigation': True,  # the whole tree on every page cost the build half a minute
    'analytics_id': '',
    'style_nav_header_background': '#5bbdbf',
    'style_external_links': True,
    'vcs_pageview_mode': '',
    'topbar_links': {},
}
html_context = {
    'display_github': False,
    'current_version': '',
    'available_versions': [],
}

# Diagrams as inline SVG made by Debian's graphviz; nothing fetched at build time.
graphviz_output_format = 'svg'
graphviz_dot_args = ['-Gfontname=sans-serif', '-Nfontname=sans-serif', '-Efontname=sans-serif']

default_role = 'any'
nitpicky = True
