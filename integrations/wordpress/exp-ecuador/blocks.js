/**
 * The blocks in the editor: one per element (the list and each one's attributes come from the
 * plugin, from elements.json). Rendered on the server, like the shortcodes; in the editor a
 * placeholder with the element's name, and its attributes in the sidebar.
 */
(function (wp, blocks) {
  if (!wp || !wp.blocks || !Array.isArray(blocks)) return;
  var el = wp.element.createElement;
  var useBlockProps = wp.blockEditor.useBlockProps;
  var InspectorControls = wp.blockEditor.InspectorControls;
  var PanelBody = wp.components.PanelBody;
  var TextControl = wp.components.TextControl;
  var Placeholder = wp.components.Placeholder;
  blocks.forEach(function (block) {
    var attributes = { align: { type: 'string', default: block.wide ? 'wide' : '' } };
    block.attributes.forEach(function (name) {
      attributes[name] = { type: 'string' };
    });
    wp.blocks.registerBlockType(block.name, {
      apiVersion: 2,
      title: block.title,
      description: block.description,
      category: 'widgets',
      icon: 'admin-home',
      attributes: attributes,
      supports: { align: ['wide', 'full'] },
      edit: function (props) {
        var fields = block.attributes.map(function (name) {
          return el(TextControl, {
            key: name,
            label: name,
            value: props.attributes[name] || '',
            onChange: function (value) {
              var change = {};
              change[name] = value;
              props.setAttributes(change);
            },
          });
        });
        return el(
          'div',
          useBlockProps(),
          el(InspectorControls, null, el(PanelBody, { title: block.title }, fields)),
          el(Placeholder, { label: block.title, instructions: '<' + block.tag + '>' }),
        );
      },
      save: function () {
        return null;
      },
    });
  });
})(window.wp, window.expEcuadorBlocks);
