import { buildDeepLink } from '../../src/contract/index.js';

/** A recommended item of provider `cp1` whose target is right for list place `index`. */
export function item(videoId: string, index: number, order: number, title = `Video ${videoId}`) {
  const id = `V-cp1-${videoId}`;
  return {
    id,
    title,
    duration: 120,
    image_url: `https://img.example.com/${videoId}.jpg`,
    order,
    type: 'video',
    target: buildDeepLink({
      scheme: 'mv',
      host: 'com.example.cp1',
      query: [
        ['action', 'playVideo'],
        ['id', videoId],
        ['fullscreen', 'true'],
        ['transparent', 'false'],
        [
          'default',
          buildDeepLink({
            scheme: 'mv',
            host: 'com.example.cp1',
            path: '/home',
            query: [
              ['a', '1'],
              ['b', '2'],
            ],
          }),
        ],
        ['detail_id', id],
        ['mode', 'normal'],
        ['language', 'English'],
        ['position', `localplayrecomm||||${index}`],
        ['back_scheme', buildDeepLink({ scheme: 'mvplayer', host: 'back', query: [['from', 'recomm']] })],
        ['ref', 'LOCALRECOMM'],
      ],
    }),
    target_addition: [buildDeepLink({ scheme: 'mv', host: 'log', query: [['event', 'VIEW']] })],
    top_left_logo: '',
    top_right_logo: '',
  };
}

/** A complete, valid root scenario file value (all six operations), small enough to read. */
export function minimalScenario() {
  const md5 = '0123456789abcdef0123456789abcdef';
  return {
    description: 'A small valid scenario for tests',
    operations: {
      ad_config: { data: { enabled: true } },
      'meta/cp': {
        data: [
          {
            id: 'cp1',
            name: 'Provider One',
            apk_url: '',
            app_icon: '',
            top_right_logo: '',
            cp_link: 'mv://com.example.cp1?from=player',
          },
        ],
      },
      'meta/setting': {
        data: {
          codec_level: '3',
          disable_codec_name: 'none',
          language_switch: 1,
          recommend_exit_times: 1,
          recommend_exit_times_gallery: 1,
          recommend_exit_times_no_click: 1,
          recommend_exit_times_no_click_gallery: 1,
          recommend_page_control_show_times: 1,
          recommend_page_control_show_times_for_gallery: 1,
          recommend_page_max_show_times_without_click: 1,
          recommend_page_max_show_times_without_click_for_gallery: 1,
          recommend_show_times_interval: 1,
          recommend_suspend_times: 1,
          recommend_suspend_times_gallery: 1,
          recommend_suspend_times_no_click: 1,
          recommend_suspend_times_no_click_gallery: 1,
        },
      },
      'meta/plugin': {
        data: [
          {
            id: 'cp1',
            name: 'Plugin',
            type: 'player_plugin',
            version: 2,
            version_name: '1.2',
            updated_at: 1700000000,
            url: `https://dl.example.com/${md5}.apk`,
            md5,
            vendor_market: 'market://details?id=com.example.cp1',
            market_sign: {
              appClientId: 'c',
              appId: 'a',
              appSignature: 's',
              ext_marketType: 'm',
              nonce: '12:34',
              ref: 'r',
              ext_mimarket_external_url: `https://api.example.com/api/g1/meta/upgrade?uri=${encodeURIComponent('mv://player-plugin/cp1/2')}&_region=IN`,
            },
            params: { plugin_type: 'apk', need_install: 'true', signature: md5, version_code: '2' },
          },
        ],
      },
      'localplay/diversion': [
        {
          when: { query: { is_from_gallery: 'true' } },
          data: { end: [item('a', 0, 9), item('b', 1, 5)], exit: [item('a', 0, 9)], suspend: [] },
        },
        { data: { end: [], exit: [], suspend: [] } },
      ],
      'localplay/recomm': { data: [item('a', 0, 1), item('b', 1, 2)] },
    },
  };
}
